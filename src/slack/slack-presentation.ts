/** One copy of a batch's messages in a conversation: the first message and its continuations. */
export interface MessageCopy {
  channel: string;
  ts: string;
  replies: string[];
  /** a hash of what each message (first, then each reply) last showed; unchanged ones are not sent again */
  sent?: string[];
}

/** A copy sent to a teammate's direct messages on a hand-off. */
export interface DirectCopy extends MessageCopy {
  /** who it was sent to */
  user: string;
}

/** Where a batch's messages are: the channel message and its continuation replies. */
export interface SlackPresentation {
  [key: string]: unknown;
  channel: string;
  ts: string;
  replies: string[];
  /** content hashes of the channel message and its replies, see {@link MessageCopy} */
  sent?: string[];
  /** copies in teammates' direct messages, kept in step with the channel message */
  copies?: DirectCopy[];
  /** how many of the record's hand-offs were announced in the channel message's thread */
  announced?: number;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((r): r is string => typeof r === 'string') : [];

function readCopy(value: unknown): DirectCopy | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { channel, ts, replies, user, sent } = value as Record<string, unknown>;
  if (typeof channel !== 'string' || typeof ts !== 'string' || typeof user !== 'string') {
    return undefined;
  }
  return { channel, ts, user, replies: strings(replies), sent: strings(sent) };
}

/** Reads the presenter's part of a stored record, if the batch was posted. */
export function readPresentation(
  value: Record<string, unknown> | undefined,
): SlackPresentation | undefined {
  if (!value || typeof value.channel !== 'string' || typeof value.ts !== 'string') return undefined;
  const shown: SlackPresentation = {
    channel: value.channel,
    ts: value.ts,
    replies: strings(value.replies),
    sent: strings(value.sent),
  };
  if (Array.isArray(value.copies)) {
    shown.copies = value.copies.map(readCopy).filter((c): c is DirectCopy => c !== undefined);
  }
  if (typeof value.announced === 'number') shown.announced = value.announced;
  return shown;
}
