import type { SocketModeReceiver } from '@slack/bolt';
import type { Logger } from 'pino';
import { checkSocketFrame } from '../../core/inbound/socket-frame.js';

type FrameHandler = (data: unknown, isBinary: boolean) => unknown;

/**
 * The client's `send(envelopeId)`, which writes an ack: TypeScript calls it private, but it is
 * how the client acks every envelope (Bolt's own ack goes through it).
 */
type AckSender = { send(envelopeId: string): Promise<void> };

/**
 * Puts a check in front of the Socket Mode client's frame handler, which dereferences a
 * frame's `payload` (and `payload.event`) without checking and ends the process when they are
 * missing. A refused frame is acknowledged when it has an envelope_id (so Slack does not send
 * it again) and logged once; a frame that passes goes to the client as before, and anything
 * the client still throws on is logged instead of becoming an unhandled rejection.
 */
export function guardSocketFrames(receiver: SocketModeReceiver, log: Logger): void {
  const { client } = receiver;
  const handlers = client.listeners('ws_message') as FrameHandler[];
  const [handle] = handlers;
  const acker = client as unknown as AckSender;
  if (!handle || handlers.length !== 1 || typeof acker.send !== 'function') {
    // Fail at start, not at the first bad frame: the client was changed under us.
    throw new Error(
      `the Socket Mode client has ${handlers.length} "ws_message" handlers (expected 1) and ${typeof acker.send === 'function' ? 'a' : 'no'} send method; @slack/socket-mode changed how it reads frames, so src/slack/transport/guard-socket-frames.ts must be updated`,
    );
  }
  client.removeListener('ws_message', handle);
  client.on('ws_message', (data: unknown, isBinary: boolean) => {
    const verdict = isBinary ? { pass: true as const } : checkSocketFrame(frameText(data));
    if (verdict.pass) {
      const failed = (error: unknown) =>
        log.error({ err: error }, 'could not handle a Socket Mode frame');
      try {
        const handled = handle.call(client, data, isBinary);
        if (handled instanceof Promise) handled.catch(failed);
      } catch (error) {
        failed(error);
      }
      return;
    }
    const { problem, envelopeId, envelopeType } = verdict;
    log.warn(
      { problem, envelopeType, acknowledged: envelopeId !== undefined },
      'refused a Socket Mode frame',
    );
    if (envelopeId !== undefined) {
      acker
        .send(envelopeId)
        .catch((error: unknown) =>
          log.warn({ err: error }, 'could not acknowledge a refused frame'),
        );
    }
  });
}

/** A frame's text, as the client decodes it. */
function frameText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof Uint8Array || data instanceof ArrayBuffer) {
    return new TextDecoder().decode(data);
  }
  return '';
}
