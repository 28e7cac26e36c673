import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS, actionId, CALLBACK_IDS } from '../../src/core/slack/controls/ids.js';
import type { FakeSlack, ParsedMention } from '../support/fake-slack/index.js';
import { ALICE, BOB, elementsOf, visibleText } from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import {
  choose,
  click,
  E2E_MODE,
  healthyRelayPerTest,
  openHome,
  postBatch,
  pressSubmit,
  pressYesNo,
  thread,
  waitForAnswered,
} from './relay-steps.js';

const ONCALL = 'S0ONCALL1';

/** Agent text that would notify a whole channel, a person and a group if Slack parsed it. */
const LOUD = '@here @channel @everyone (@bob) *@oncall* ping';

/** Whom agent text must never reach: everyone in the channel, bob, the on-call group. */
const NEVER = new Set(['here', 'channel', 'everyone', BOB, ONCALL]);

const describeMention = (m: ParsedMention) => `${m.matched} in ${m.surface} ${m.field}`;

function assertNoneFromAgentText(slack: FakeSlack, where: string): void {
  const loud = slack.mentions.filter((m) => NEVER.has(m.target));
  assert.deepEqual(loud.map(describeMention), [], `no mention from agent text (${where})`);
}

/** What a person sees: the invisible joiners left out. */
const seen = (text: string) => text.replaceAll('\u2060', '');

const mode = E2E_MODE;
describe(`agent text never notifies anyone (${mode} mode)`, () => {
  const h = healthyRelayPerTest(mode);

  test('plain @here, @channel, @everyone and @name are shown on every surface but mention nobody', async () => {
    h.slack.addUserGroup({ id: ONCALL, users: [BOB], handle: 'oncall' });
    const longPreview = Array.from({ length: 400 }, (_, i) => `${i}: ${LOUD}`).join('\n');
    const batch = {
      seq: 1,
      questions: [
        {
          id: 'who',
          type: 'choose-one',
          prompt: `${LOUD}: who?`,
          options: [LOUD, '@bob', 'nobody'],
        },
        {
          id: 'plan',
          type: 'yes-no',
          prompt: 'Accept?',
          preview: { type: 'markdown', content: `# Plan\n${LOUD}\n\n\`@here in code\`` },
        },
        {
          id: 'long',
          type: 'yes-no',
          prompt: `Long one, ${LOUD}`,
          preview: { type: 'markdown', content: longPreview },
        },
      ],
    };
    const posted = await postBatch(h, 'run-loud', batch);
    const { ts } = posted;
    // a batch that fits no single message continues in the thread; Submit is in its last part
    await waitFor(
      () =>
        thread(h.slack, ts).some((m) =>
          elementsOf(m.blocks).some((e) => e.actionId === ACTION_KINDS.submit),
        ),
      'every part of the batch posted',
    );
    assert.match(seen(posted.text), /@here @channel @everyone \(@bob\) \*@oncall\* ping: who\?/);
    assert.ok(seen(visibleText(posted)).includes(`*1.* ${LOUD}: who?`), 'the prompt is shown');
    assertNoneFromAgentText(h.slack, 'the batch messages');

    // the missing-answers notice quotes the prompts
    await pressSubmit(h.slack, ts);
    const notice = await waitFor(() => h.slack.ephemerals(ALICE)[0], 'the notice');
    assert.ok(seen(notice.text).includes('@here'));
    assertNoneFromAgentText(h.slack, 'the ephemeral notice');

    // the full preview in its modal
    await click(h.slack, ts, actionId(ACTION_KINDS.showPreview, 2));
    const modal = await waitFor(
      () => h.slack.views(ALICE).find((v) => v.callback_id === CALLBACK_IDS.preview),
      'the preview modal',
    );
    assert.ok(seen(JSON.stringify(modal.blocks)).includes('399: @here'));
    await h.slack.closeView({ viewId: String(modal.id), user: ALICE });
    assertNoneFromAgentText(h.slack, 'the preview modal');

    // the Home tab lists the open batch with its question
    const home = await openHome(h.slack, ALICE);
    assert.ok(seen(JSON.stringify(home.blocks)).includes('@here'));
    assertNoneFromAgentText(h.slack, 'the Home tab');

    await choose(h.slack, ts, 0, ['0']);
    await pressYesNo(h.slack, ts, 1, true);
    await pressYesNo(h.slack, ts, 2, true);
    await pressSubmit(h.slack, ts);
    const final = await waitForAnswered(h.slack, ts);
    assert.ok(seen(visibleText(final)).includes(LOUD), 'the answer quotes the chosen option');
    for (const message of thread(h.slack, ts)) assert.ok(message.text !== '');
    assertNoneFromAgentText(h.slack, 'the answered messages');
    // the relay's own mention of who answered still works
    assert.ok(h.slack.mentions.some((m) => m.target === ALICE && m.how === 'markup'));
  });
});
