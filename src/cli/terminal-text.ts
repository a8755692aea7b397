/**
 * The one place where the CLI makes text from the store safe for a terminal. Stored content,
 * tool names, session ids, error details and model text can all carry control characters; on
 * a terminal, ESC starts sequences that set the window title (OSC 0), write the clipboard
 * (OSC 52), clear the screen or move the cursor, and C1 controls and bidirectional overrides
 * do the same or reorder what is shown. Everything the CLI prints passes through here, through
 * {@link Output} (output.ts) or the error report (errors.ts).
 */

const CONTROLS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what it escapes
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_BUT_LINES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what it escapes
  /\r(?!\n)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves raw that a terminal still acts on. */
const JSON_RAW = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

function escaped(ch: string): string {
  const code = ch.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * Text shown escaped where a terminal would act on it: C0 controls but tab, DEL, C1 controls
 * and bidirectional overrides become `\x1b`, `\u202e`, … With `lines`, line ends (`\n`, and `\r`
 * before `\n`) are kept, for content printed as it is; a lone `\r` is still escaped.
 *
 * @example
 * printable("ok\u001b]0;pwned\u0007") // "ok\\x1b]0;pwned\\x07"
 * printable("a\nb", { lines: true })  // "a\nb"
 */
export function printable(text: string, options: { readonly lines?: boolean } = {}): string {
  return text.replace(options.lines ? CONTROLS_BUT_LINES : CONTROLS, escaped);
}

/**
 * A JSON text with every character a terminal acts on written as a `\u` escape: the same JSON
 * value (JSON.stringify already escapes C0), safe to print.
 *
 * @example
 * terminalJson({ tool: "x\u009b2J" }) // '{"tool":"x\\u009b2J"}'
 */
export function terminalJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? "null").replace(
    JSON_RAW,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
