/**
 * A loopback stand-in for Slack: Web API, Socket Mode, signed HTTP interactions and a Slack
 * client acting as users. Point a real `@slack/bolt` App at it with
 * `clientOptions: { slackApiUrl: fake.apiUrl }`.
 */
export type { BlockIssue, BlockRule } from './block-rules.js';
export { BLOCK_RULES, KNOWN_BLOCK_TYPES, KNOWN_ELEMENT_TYPES } from './block-rules.js';
export type { FakeSlack, ObservedView, StartFakeSlackOptions } from './fake-slack.js';
export { MANIFEST_BOT_SCOPES, startFakeSlack } from './fake-slack.js';
export type { RequestUrlAnswer } from './http-delivery.js';
export { slackSignature } from './http-delivery.js';
export type { MentionTarget, ParsedMention } from './mentions.js';
export { messageRefusals, viewRefusals } from './slack-would-refuse.js';
export type {
  DisconnectReason,
  DropKind,
  RawFrameResult,
  SocketDelivery,
} from './socket-mode-hub.js';
export type * from './types.js';
export { DELIVERY_FAILURE_KINDS } from './types.js';
export type { ElementRef, InteractionResult, SuggestResult, SurfaceRef } from './user-actions.js';
export type { Surface } from './validate-blocks.js';
export { formatIssue, validateMessageBlocks, validateView } from './validate-blocks.js';
export { TRIGGER_LIFETIME_MS, WORKSPACE_IDENTITY } from './workspace.js';
