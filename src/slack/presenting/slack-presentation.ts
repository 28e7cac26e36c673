/** One copy of a batch's messages in a conversation: the first message and its continuations. */
export interface MessageCopy {
  channel: string;
  ts: string;
  replies: string[];
  /** a hash of what each message (first, then each reply) last showed; unchanged ones are not sent again */
  sent?: string[];
  /** the iteration stamped on each message's block ids when it was last sent (see `stampIteration`) */
  stamps?: number[];
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
  /** iterations stamped on the channel message and its replies, see {@link MessageCopy} */
  stamps?: number[];
  /** the last iteration stamped on any message of the batch; the next one is higher */
  iteration?: number;
  /** how often Slack refused a message of the batch as too long (see `layoutAt`) */
  split?: number;
  /** copies in teammates' direct messages, kept in step with the channel message */
  copies?: DirectCopy[];
  /** how many of the record's hand-offs were announced in the channel message's thread */
  announced?: number;
  /** the hand-offs (by index) whose failed delivery was told in the thread */
  undeliveredTold?: number[];
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((r): r is string => typeof r === 'string') : [];

const counts = (value: unknown): number[] =>
  Array.isArray(value) ? value.map((n) => (Number.isSafeInteger(n) ? (n as number) : 0)) : [];

function readCopy(value: unknown): DirectCopy | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { channel, ts, replies, user, sent, stamps } = value as Record<string, unknown>;
  if (typeof channel !== 'string' || typeof ts !== 'string' || typeof user !== 'string') {
    return undefined;
  }
  return {
    channel,
    ts,
    user,
    replies: strings(replies),
    sent: strings(sent),
    stamps: counts(stamps),
  };
}

/**
 * The presentation a sync is building: read it, change it in memory (`set`), or change it and
 * store it at once (`keep`), as soon as a message was posted.
 */
export interface PresentationState {
  current(): SlackPresentation;
  set(next: SlackPresentation): void;
  keep(next: SlackPresentation): Promise<void>;
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
    stamps: counts(value.stamps),
  };
  if (Array.isArray(value.copies)) {
    shown.copies = value.copies.map(readCopy).filter((c): c is DirectCopy => c !== undefined);
  }
  if (typeof value.announced === 'number') shown.announced = value.announced;
  if (Array.isArray(value.undeliveredTold)) {
    shown.undeliveredTold = value.undeliveredTold.filter((n): n is number =>
      Number.isSafeInteger(n),
    );
  }
  if (typeof value.iteration === 'number') shown.iteration = value.iteration;
  if (typeof value.split === 'number') shown.split = value.split;
  return shown;
}

/**
 * The iteration a message of the batch (the channel message, a reply, or a direct copy) carries
 * now: `0` for one sent before messages were stamped, `undefined` for a message that is not
 * one of the batch's.
 */
export function iterationOfMessage(
  shown: SlackPresentation | undefined,
  where: { channel: string | undefined; ts: string | undefined },
): number | undefined {
  if (!shown || !where.channel || !where.ts) return undefined;
  for (const copy of [shown, ...(shown.copies ?? [])]) {
    if (copy.channel !== where.channel) continue;
    const index = [copy.ts, ...copy.replies].indexOf(where.ts);
    if (index >= 0) return copy.stamps?.[index] ?? 0;
  }
  return undefined;
}
