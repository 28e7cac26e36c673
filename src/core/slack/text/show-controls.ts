/**
 * Characters that must not reach Slack as they are, because they are invisible there or change
 * how the text around them reads: the controls (`\p{Cc}`: C0 but tab and newline, DEL, C1),
 * and the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the
 * "Trojan Source" trick that makes `exe.txt` read `txt.exe`. The marks LRM, RLM and ALM are
 * left alone: right-to-left writing needs them, and they reorder nothing but the punctuation
 * beside them.
 */
const HIDDEN = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;

/** How many characters a hidden one takes once shown: `\u001b`. */
export const SHOWN_CONTROL_LENGTH = 6;

/** Whether one UTF-16 unit is a character {@link showControls} writes out. */
export function isHiddenControl(unit: string): boolean {
  if (unit.length !== 1) return false;
  const code = unit.charCodeAt(0);
  return (
    (code <= 0x1f && code !== 0x09 && code !== 0x0a) ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/**
 * Text as the relay sends it to Slack: every hidden character written out as its code
 * (`\u0000`, `\u001b`, `\u202e`), so what people read is what is in the file, and a Windows
 * line end (CR LF) kept as the line end it means. Applying it twice changes nothing more.
 */
export function showControls(text: string): string {
  return text
    .replaceAll('\r\n', '\n')
    .replace(HIDDEN, (char) =>
      char === '\t' || char === '\n'
        ? char
        : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
}
