/**
 * Clips text to `max` characters for display, never splitting a surrogate pair, and says it
 * did: with `sayLength`, the whole length follows (`… (1,234 chars)`), so a reader (or a model)
 * knows the line goes on; without it, a single `…` keeps a column's width.
 *
 * @example
 * clipText("a long line of text", 6); // "a lon…"
 * clipText("a long line of text", 6, { sayLength: true }); // "a long… (19 chars)"
 */
export function clipText(text: string, max: number, options: { sayLength?: boolean } = {}): string {
  if (text.length <= max) return text;
  const keep = options.sayLength ? max : Math.max(0, max - 1);
  let cut = text.slice(0, keep);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return options.sayLength ? `${cut}… (${text.length.toLocaleString("en-US")} chars)` : `${cut}…`;
}

/**
 * `text` cut to at most `max` characters around the character at `focus` (centred on it), with
 * `…` where it was cut: an excerpt of a long line keeps the part that was asked about.
 *
 * @example
 * clipAround("aaaa KEY bbbb", 6, 3); // "…KEY…"
 */
export function clipAround(text: string, focus: number, max: number): string {
  if (text.length <= max) return text;
  const centre = Math.min(Math.max(0, focus), text.length - 1);
  let from = Math.max(0, Math.min(centre - Math.floor(max / 2), text.length - max));
  let to = from + max;
  // A cut never splits a surrogate pair.
  if (isHighSurrogate(text.charCodeAt(from - 1))) from += 1;
  if (isHighSurrogate(text.charCodeAt(to - 1))) to -= 1;
  return `${from > 0 ? "…" : ""}${text.slice(from, to)}${to < text.length ? "…" : ""}`;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
