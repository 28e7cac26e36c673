/** Produces Slack-like identifiers and message timestamps from an injected clock and random source. */
export interface IdSource {
  /** `"1700000000.000100"`-style ts, unique and strictly increasing */
  nextTs(): string;
  /** `V0…`, `D0…` style ids */
  nextId(prefix: string): string;
  /** `"1234567890123.1234567890.abcdef…"`, the shape Slack uses for trigger ids */
  triggerId(): string;
  /** a random hex string of the given length */
  hex(length: number): string;
  /** five random characters, the shape of the block_ids Slack generates */
  blockId(): string;
}

const MICROS_PER_SECOND = 1_000_000;
const BLOCK_ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789=+/';

/** Builds an id source; `now` is milliseconds, `random` returns [0, 1). */
export function createIdSource(now: () => number, random: () => number): IdSource {
  let lastMicros = 0;
  let counter = 0;

  const hex = (length: number): string => {
    let out = '';
    for (let i = 0; i < length; i += 1) out += Math.floor(random() * 16).toString(16);
    return out;
  };

  return {
    nextTs() {
      // Slack ts are microsecond-resolution wall-clock stamps; two posts in the same
      // millisecond still get distinct, ordered values.
      const candidate = Math.floor(now()) * 1000;
      lastMicros = candidate > lastMicros ? candidate : lastMicros + 100;
      const seconds = Math.floor(lastMicros / MICROS_PER_SECOND);
      const micros = String(lastMicros % MICROS_PER_SECOND).padStart(6, '0');
      return `${seconds}.${micros}`;
    },
    nextId(prefix) {
      counter += 1;
      return `${prefix}0${counter.toString(36).toUpperCase().padStart(8, '0')}`;
    },
    triggerId() {
      counter += 1;
      return `${Math.floor(now())}${counter}.${Math.floor(random() * 1e10)}.${hex(32)}`;
    },
    hex,
    blockId() {
      let out = '';
      for (let i = 0; i < 5; i += 1) {
        out += BLOCK_ID_CHARS[Math.floor(random() * BLOCK_ID_CHARS.length)];
      }
      return out;
    },
  };
}
