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
