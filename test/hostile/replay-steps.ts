// Sending a form submission again as a replay would: for the single-relay and shared-mode tests.
import assert from 'node:assert/strict';
import type { FakeSlack, JsonObject } from '../support/fake-slack/index.js';
import { CHANNEL, type Mode } from '../support/relay-harness.js';

/** What the relay logs, at warn, for each submission it had acted on already. */
export const REPLAYED = 'a form submission came again; it changed nothing';

/**
 * Sends `payload` again `copies` times as Slack delivered it: in HTTP mode the same signed
 * body with one timestamp (so every copy is byte for byte the same request), in Socket Mode
 * the same payload in an envelope of its own. Resolves once the relay acknowledged each.
 */
export async function replay(slack: FakeSlack, mode: Mode, payload: JsonObject, copies: number) {
  const timestampSec = Math.floor(Date.now() / 1000);
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  for (let i = 0; i < copies; i += 1) {
    if (mode === 'http') {
      const answer = await slack.postSignedBody({
        body,
        contentType: 'application/x-www-form-urlencoded',
        timestampSec,
      });
      assert.deepEqual(answer.kind === 'answered' ? answer.status : answer, 200, 'acknowledged');
    } else {
      const envelopeId = `replay-${i}-${Date.now()}`;
      const frame = {
        envelope_id: envelopeId,
        type: 'interactive',
        payload,
        accepts_response_payload: true,
      };
      const sent = await slack.sendSocketFrame(JSON.stringify(frame), { envelopeId });
      assert.deepEqual(sent, { sent: true, acked: true }, 'acknowledged');
    }
  }
}

/** The replies in the channel thread of `ts` saying the batch was handed off. */
export const handOffNotices = (slack: FakeSlack, ts: string) =>
  (slack.messages(CHANNEL).find((m) => m.ts === ts)?.replies ?? []).filter((r) =>
    /handed this to/.test(r.text),
  );

/** The view id of a submission's payload. */
export const viewIdOf = (payload: JsonObject) => String((payload.view as JsonObject).id);
