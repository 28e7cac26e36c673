import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BLOCK_KIT_LIMITS as RELAY } from '../../../../src/core/slack/layout/block-kit-limits.js';
import { SLACK_LIMITS as SLACK } from '../../../support/fake-slack/slack-limits.js';

/** Each of the relay's limits beside the one Slack publishes for the same field. */
const PAIRS: Record<keyof typeof RELAY, number> = {
  messageBlocks: SLACK.message.blocks,
  modalBlocks: SLACK.view.blocks,
  text: SLACK.text,
  sectionText: SLACK.section.text,
  sectionFields: SLACK.section.fields,
  sectionFieldText: SLACK.section.fieldText,
  headerText: SLACK.header.text,
  markdownText: SLACK.markdown.text,
  markdownTotalPerMessage: SLACK.message.markdownTotal,
  actionId: SLACK.actionId,
  blockId: SLACK.blockId,
  buttonText: SLACK.button.text,
  buttonValue: SLACK.button.value,
  optionText: SLACK.option.text,
  optionValue: SLACK.option.value,
  optionDescription: SLACK.option.description,
  selectPlaceholder: SLACK.select.placeholder,
  selectOptions: SLACK.select.options,
  checkboxOptions: SLACK.checkboxes.options,
  radioOptions: SLACK.radioButtons.options,
  overflowOptions: SLACK.overflow.options,
  actionsElements: SLACK.actions.elements,
  contextElements: SLACK.context.elements,
  confirmTitle: SLACK.confirm.title,
  confirmText: SLACK.confirm.text,
  confirmButton: SLACK.confirm.button,
  inputLabel: SLACK.input.label,
  inputHint: SLACK.input.hint,
  plainTextInputMax: SLACK.plainTextInput.maxLength,
  viewTitle: SLACK.view.title,
  viewSubmit: SLACK.view.submit,
  viewClose: SLACK.view.close,
  viewCallbackId: SLACK.view.callbackId,
  privateMetadata: SLACK.view.privateMetadata,
  messageText: SLACK.message.text,
};

test("the renderer's Block Kit limits are within Slack's published ones", () => {
  const over = Object.entries(PAIRS).flatMap(([name, slack]) => {
    const relay = RELAY[name as keyof typeof RELAY];
    return relay > slack ? [`${name}: the relay allows ${relay}, Slack ${slack}`] : [];
  });
  assert.deepEqual(over, []);
});
