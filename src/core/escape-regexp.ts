/**
 * A literal as a regular expression source: every character with a meaning in a pattern is
 * escaped, so the source matches exactly `text`.
 *
 * @example
 * new RegExp(escapeRegExp("a.b(1)")).test("a.b(1)"); // true; "aXb(1)" does not match
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
