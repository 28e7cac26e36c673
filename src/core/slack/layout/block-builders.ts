import type {
  ActionsBlock,
  ActionsBlockElement,
  Button,
  ContextBlock,
  MrkdwnElement,
  PlainTextElement,
  PlainTextInput,
  SectionBlock,
} from '@slack/types';
import { showControls } from '../text/show-controls.js';
import { safeCutPoint, truncatePlain } from '../text/text-cut.js';
import { BLOCK_KIT_LIMITS } from './block-kit-limits.js';

/** A plain-text object: Slack shows it literally, so only control characters are written out. */
export const plainText = (text: string, max: number = BLOCK_KIT_LIMITS.text): PlainTextElement => ({
  type: 'plain_text',
  text: truncatePlain(showControls(text), max),
  emoji: true,
});

/** A mrkdwn object; the caller has already escaped any agent text in it. */
export const mrkdwn = (text: string): MrkdwnElement => ({ type: 'mrkdwn', text });

/** A section holding escaped mrkdwn (at most 3000 characters). */
export const mrkdwnSection = (text: string): SectionBlock => ({
  type: 'section',
  text: mrkdwn(text),
});

/** A context line holding escaped mrkdwn (at most 3000 characters). */
export const mrkdwnContext = (text: string): ContextBlock => ({
  type: 'context',
  elements: [mrkdwn(text)],
});

/** A context line of plain text. */
export const plainContext = (text: string): ContextBlock => ({
  type: 'context',
  elements: [plainText(text)],
});

/** An actions block; `blockId` is one of the ids from `ids.ts`. */
export const actionsBlock = (blockId: string, elements: ActionsBlockElement[]): ActionsBlock => ({
  type: 'actions',
  block_id: blockId,
  elements,
});

/** A button with a plain-text label cut to Slack's 75 characters. */
export function button(
  label: string,
  actionId: string,
  options: { value?: string; primary?: boolean } = {},
): Button {
  const element: Button = {
    type: 'button',
    action_id: actionId,
    text: plainText(label, BLOCK_KIT_LIMITS.buttonText),
  };
  if (options.value !== undefined) element.value = options.value;
  if (options.primary) element.style = 'primary';
  return element;
}

/**
 * A multi-line text input holding `initial` (when there is any), cut to what Slack's input
 * takes, at a point that splits no character.
 */
export function multilineInput(actionId: string, initial: string | undefined): PlainTextInput {
  const max = BLOCK_KIT_LIMITS.plainTextInputMax;
  const input: PlainTextInput = {
    type: 'plain_text_input',
    action_id: actionId,
    multiline: true,
    max_length: max,
  };
  if (initial !== undefined && initial !== '') {
    input.initial_value = initial.slice(0, safeCutPoint(initial, max));
  }
  return input;
}
