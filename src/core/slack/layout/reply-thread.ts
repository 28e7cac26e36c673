/**
 * The thread a notice about a click on `message` belongs in, or undefined for the channel.
 * Slack gives a thread's parent message `thread_ts` equal to its own `ts` once it has replies,
 * so only a `thread_ts` that differs from `ts` means the message is itself a reply; a notice
 * for a click on the parent must not disappear into the thread.
 */
export function replyThreadTs(
  message: { ts?: unknown; thread_ts?: unknown } | undefined,
): string | undefined {
  const threadTs = message?.thread_ts;
  if (typeof threadTs !== 'string' || threadTs === '') return undefined;
  return threadTs === message?.ts ? undefined : threadTs;
}
