import assert from 'node:assert/strict';
import { APPROVE_ALL_PICK } from '../../../src/core/digest/render-approve-all.js';
import { APPROVE_ALL_BLOCK, DIGEST_CONTROLS } from '../../../src/core/slack/controls/ids.js';
import type { FakeSlack, ObservedMessage, ObservedView } from '../../support/fake-slack/index.js';
import { CHANNEL, elementsOf } from '../../support/relay-harness.js';
import { waitFor } from '../../support/wait.js';
import { click, formOpenedBy } from '../relay-steps.js';

/** The channel's digest as it is now, or undefined. */
export const digestOf = (messages: ObservedMessage[]) =>
  messages.find((m) => m.text.includes('waiting for a quick answer'));

/** Waits until the channel's digest says `text` (its notification text); gives it. */
export function waitForDigestSaying(slack: FakeSlack, text: string) {
  return waitFor(() => {
    const found = digestOf(slack.messages(CHANNEL));
    return found?.text === text ? found : undefined;
  }, `a digest saying "${text}"`);
}

/** The digest's answer buttons, by line. */
export const lineButtons = (digest: { blocks: ObservedMessage['blocks'] }) =>
  elementsOf(digest.blocks).filter((e) => e.actionId.startsWith(`${DIGEST_CONTROLS.answer}:`));

/** One checkbox block of the Approve all form: its id and its options. */
export interface ApproveAllPicks {
  blockId: string;
  options: { value: string; text: { text: string } }[];
}

/** `user` presses Approve all on the digest `ts`; gives the form and its checkbox blocks. */
export async function openApproveAll(slack: FakeSlack, ts: string, user: string) {
  const form = await formOpenedBy(
    slack,
    await click(slack, ts, DIGEST_CONTROLS.approveAll, user),
    user,
  );
  assert.ok(form, 'the Approve all form opened');
  type Block = { block_id?: string; element?: { options: ApproveAllPicks['options'] } };
  const picks = (form.blocks as unknown as Block[])
    .filter((b) => b.block_id?.startsWith(APPROVE_ALL_BLOCK))
    .map((b) => ({ blockId: String(b.block_id), options: b.element?.options ?? [] }));
  return { form, picks };
}

/** Confirms the form with every batch ticked but those titled in `untick`. */
export async function confirmApproveAll(
  slack: FakeSlack,
  opened: { form: ObservedView; picks: ApproveAllPicks[] },
  user: string,
  untick: ReadonlySet<string> = new Set(),
) {
  const values: Record<string, Record<string, string[]>> = {};
  for (const pick of opened.picks) {
    const kept = pick.options
      .filter((o) => !untick.has(o.text.text.split(' → ')[0] as string))
      .map((o) => o.value);
    values[pick.blockId] = { [APPROVE_ALL_PICK]: kept };
  }
  const sent = await slack.submitView({ viewId: String(opened.form.id), user, values });
  assert.equal(sent.acked, true);
  return waitFor(
    () => slack.ephemerals(user).find((e) => e.text.includes('Approve all answered')),
    'the result of Approve all',
  );
}

/**
 * The action id of the digest line of run (or title) `name` whose id starts with `kind`: its
 * answer buttons (`index` picks one) or its Undo. Lines are found by their text, not their place.
 */
export function lineControl(
  digest: { blocks: ObservedMessage['blocks'] },
  name: string,
  kind: string,
  index = 0,
): string {
  const blocks = digest.blocks as {
    type: string;
    text?: { text?: string };
    elements?: { action_id: string }[];
  }[];
  const at = blocks.findIndex((b) => b.type === 'section' && b.text?.text?.startsWith(`*${name}*`));
  const ids = (blocks[at + 1]?.elements ?? [])
    .map((e) => e.action_id)
    .filter((id) => id.startsWith(`${kind}:`));
  const id = ids[index];
  assert.ok(at >= 0 && id, `a ${kind} button on the digest line of ${name}`);
  return id;
}
