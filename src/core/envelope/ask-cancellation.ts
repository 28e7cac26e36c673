import * as z from 'zod';

/**
 * The file the relay writes into an `ask` folder when someone presses Cancel in Slack; `ask`
 * waits for it beside the answer file. No answer file is written for a cancelled batch.
 */
export const CANCELLED_FILE_NAME = 'cancelled.json';

/** Who cancelled an `ask` batch and when. */
export interface AskCancellation {
  seq: number;
  /** The Slack user id of the person who pressed Cancel. */
  cancelledBy: string;
  /** ISO 8601 time. */
  cancelledAt: string;
}

const cancellationSchema = z.object({
  seq: z.number().int().positive(),
  cancelledBy: z.string(),
  cancelledAt: z.string(),
});

/** The bytes of `cancelled.json`: 2-space JSON and a trailing newline. */
export const serializeCancellation = (cancellation: AskCancellation): string =>
  `${JSON.stringify(cancellation, null, 2)}\n`;

/**
 * Reads `cancelled.json`; `undefined` when its content is not what the relay writes (the
 * file's presence alone already means "cancelled").
 */
export function parseCancellation(text: string): AskCancellation | undefined {
  try {
    const parsed = cancellationSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
