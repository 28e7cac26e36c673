// Builders shared by the Slack core tests.
import assert from 'node:assert/strict';
import type { KnownBlock } from '@slack/types';
import type { Question } from '../../../src/core/protocol/questions/question.js';
import type { BatchView } from '../../../src/core/slack/layout/batch-view.js';
import { BLOCK_COST, type BlockSize } from '../../../src/core/slack/layout/message-budget.js';
import type { SlackMessage } from '../../../src/core/slack/messages/render-batch-messages.js';
import { messageRefusals, viewRefusals } from '../../support/fake-slack/index.js';

export const KEY = 'AbC-12_xyz09.3';
export const REVISION = '0123abcd';

/** An open batch view with the given questions. */
export function makeView(questions: Question[], overrides: Partial<BatchView> = {}): BatchView {
  return {
    key: KEY,
    revision: REVISION,
    runName: 'run-42',
    runDir: '/home/me/project/.7/runs/run-42',
    seq: 3,
    questions,
    drafts: {},
    state: { kind: 'open' },
    ...overrides,
  };
}

/** `count` distinct option texts. */
export const optionTexts = (count: number, prefix = 'Option'): string[] =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);

// Tokens the relay writes into mrkdwn itself: a user mention and a localised date or time.
const RELAY_TOKENS =
  /<@[UWB][A-Z0-9]+>|<!date\^\d+\^(?:\{date_short_pretty\} at \{time\}|\{time_secs\})\|[^<>]+>/g;

/**
 * The relay's own rule for mrkdwn (not Slack's): agent text is escaped, so apart from the
 * relay's tokens no `<` is left and every `&` starts an entity.
 */
function unescapedMrkdwn(value: unknown, path: string): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => unescapedMrkdwn(v, `${path}/${i}`));
  if (typeof value !== 'object' || value === null) return [];
  const object = value as Record<string, unknown>;
  const found = Object.entries(object).flatMap(([k, v]) => unescapedMrkdwn(v, `${path}/${k}`));
  if (object.type !== 'mrkdwn' || typeof object.text !== 'string') return found;
  const rest = object.text.replace(RELAY_TOKENS, '');
  if (rest.includes('<')) found.push(`${path}: unescaped "<" in mrkdwn: ${rest.slice(0, 80)}`);
  if (/&(?!amp;|lt;|gt;)/.test(rest)) found.push(`${path}: unescaped "&" in mrkdwn`);
  return found;
}

/** Characters of every `text` string, initial selections aside (they repeat options). */
function textTotal(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + textTotal(v), 0);
  if (typeof value !== 'object' || value === null) return 0;
  let sum = 0;
  for (const [name, child] of Object.entries(value)) {
    if (name === 'initial_option' || name === 'initial_options') continue;
    sum += name === 'text' && typeof child === 'string' ? child.length : textTotal(child);
  }
  return sum;
}

/**
 * The relay's own layout rule: after Slack refused a batch as too long, its messages are laid
 * out within a smaller `budget` (blocks, markdown, text, and text plus a cost per block).
 */
export function overBudget(message: SlackMessage, budget: BlockSize): string[] {
  const blocks = message.blocks as unknown as Record<string, unknown>[];
  const markdown = blocks.reduce(
    (sum, b) => sum + (b.type === 'markdown' ? String(b.text).length : 0),
    0,
  );
  const text = textTotal(blocks);
  const weight = text + BLOCK_COST * blocks.length;
  const sizes = { blocks: blocks.length, markdown, text, weight };
  return Object.entries(sizes).flatMap(([name, size]) => {
    const most = budget[name as keyof BlockSize];
    return size > most ? [`${name} ${size} > ${most}`] : [];
  });
}

/**
 * Fails with everything Slack would refuse in any message, any unescaped agent text, and, given
 * a `budget`, anything over it.
 */
export function assertWithinLimits(messages: SlackMessage[], budget?: BlockSize): void {
  const problems = messages.flatMap((m, i) =>
    [
      ...messageRefusals(m),
      ...unescapedMrkdwn({ type: 'mrkdwn', text: m.text }, 'text'),
      ...unescapedMrkdwn(m.blocks, '/blocks'),
      ...(budget ? overBudget(m, budget) : []),
    ].map((p) => `message ${i}: ${p}`),
  );
  assert.deepEqual(problems, []);
}

/** Fails with everything Slack would refuse in a modal, and any unescaped agent text. */
export function assertModalOk(view: object): void {
  const modal = view as Record<string, unknown>;
  assert.deepEqual([...viewRefusals(modal), ...unescapedMrkdwn(modal.blocks, '/view/blocks')], []);
}

type Element = Record<string, unknown> & { type: string; action_id?: string };

/** Every interactive element of the messages, with the block id of its actions block. */
export function elementsOf(messages: SlackMessage[]): { blockId: string; element: Element }[] {
  return messages.flatMap((m) =>
    m.blocks.flatMap((b) =>
      b.type === 'actions'
        ? b.elements.map((e) => ({
            blockId: b.block_id as string,
            element: e as unknown as Element,
          }))
        : [],
    ),
  );
}

/** Every block of every message. */
export const blocksOf = (messages: SlackMessage[]): KnownBlock[] =>
  messages.flatMap((m) => m.blocks);

/** All text of the blocks, joined, for "does it say X" checks. */
export const textOf = (blocks: unknown): string => JSON.stringify(blocks);

/** A permission prompt's question as the hook writes it: Deny opens a form for a note. */
export const noteQuestion: Question = {
  id: 'permission',
  type: 'choose-one',
  prompt: 'Claude Code wants to use Bash.',
  options: ['Allow', 'Deny', 'Deny and stop Claude'],
  noteOptions: [1],
};
