// Builders shared by the Slack core tests.
import assert from 'node:assert/strict';
import type { KnownBlock } from '@slack/types';
import type { Question } from '../../../src/core/protocol/question.js';
import type { BatchView } from '../../../src/core/slack/batch-view.js';
import type { BlockSize } from '../../../src/core/slack/message-budget.js';
import type { SlackMessage } from '../../../src/core/slack/render-batch-messages.js';
import { messageProblems } from './block-kit-checker.js';

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

/** Fails with every problem the checker finds in any message (held to `budget`, if given). */
export function assertWithinLimits(messages: SlackMessage[], budget?: BlockSize): void {
  const problems = messages.flatMap((m, i) =>
    messageProblems(m, budget).map((p) => `message ${i}: ${p}`),
  );
  assert.deepEqual(problems, []);
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
