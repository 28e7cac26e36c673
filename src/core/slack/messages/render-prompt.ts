import type { SectionBlock } from '@slack/types';
import { mrkdwnSection } from '../layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';
import { splitEscaped } from '../text/text-cut.js';

/**
 * A question's prompt as `*<n>.* <prompt>` in as many sections as its length needs; `n` counts
 * from 1. Nothing is cut: a prompt over 3000 characters continues in the next section.
 */
export function promptSections(questionIndex: number, prompt: string): SectionBlock[] {
  const label = `*${questionIndex + 1}.* `;
  const max = BLOCK_KIT_LIMITS.sectionText;
  const source = prompt.trim() === '' ? '(no prompt)' : prompt;
  const [first = '', ...rest] = splitEscaped(source, max - label.length);
  return [mrkdwnSection(label + first), ...rest.map((chunk) => mrkdwnSection(chunk))];
}
