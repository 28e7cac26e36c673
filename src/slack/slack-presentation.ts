/** Where a batch's messages are: the channel message and its continuation replies. */
export interface SlackPresentation {
  [key: string]: unknown;
  channel: string;
  ts: string;
  replies: string[];
}

/** Reads the presenter's part of a stored record, if the batch was posted. */
export function readPresentation(
  value: Record<string, unknown> | undefined,
): SlackPresentation | undefined {
  if (!value || typeof value.channel !== 'string' || typeof value.ts !== 'string') return undefined;
  const replies = Array.isArray(value.replies)
    ? value.replies.filter((r): r is string => typeof r === 'string')
    : [];
  return { channel: value.channel, ts: value.ts, replies };
}
