import type { BatchRecord, HandOff } from '../../core/batch/batch-record.js';
import {
  renderHandOffNotice,
  renderUndeliveredNotice,
} from '../../core/slack/messages/render-team.js';
import type { MessageCopies } from './message-copy.js';
import type { MessageCopy, PresentationState } from './slack-presentation.js';

/**
 * Says in the channel message's thread who handed the batch to whom, once per hand-off, and
 * once that a hand-off could not reach its person.
 */
export async function announceHandOffs(
  record: BatchRecord,
  main: MessageCopy,
  { current, keep }: PresentationState,
  copies: Pick<MessageCopies, 'post'>,
): Promise<void> {
  const handoffs = record.handoffs ?? [];
  for (let index = current().announced ?? 0; index < handoffs.length; index += 1) {
    const handOff = handoffs[index] as HandOff;
    await copies.post(renderHandOffNotice(handOff), main.channel, main.ts);
    await keep({ ...current(), announced: index + 1 });
  }
  for (const [index, handOff] of handoffs.entries()) {
    const told = current().undeliveredTold ?? [];
    if (!handOff.undelivered || told.includes(index)) continue;
    await copies.post(renderUndeliveredNotice(handOff), main.channel, main.ts);
    await keep({ ...current(), undeliveredTold: [...told, index] });
  }
}
