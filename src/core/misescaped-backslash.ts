/**
 * JSON reads `\b` as a backspace and `\f` as a form feed, so a model that writes `CORP\bokafor`
 * or a regular expression's `\bword\b` in a tool call's JSON, without doubling the backslash,
 * sends control characters no one means (SW-67 in docs/architecture.md). The two escapes are
 * restored as typed: a backslash and the letter.
 */
const MISREAD_ESCAPES: Readonly<Record<string, string>> = { "\b": "\\b", "\f": "\\f" };
const MISREAD = /[\b\f]/g;
const HAS_MISREAD = /[\b\f]/;

/**
 * The text with every backspace and form feed put back as the `\b` or `\f` the model typed.
 *
 * @example
 * restoredBackslashes("CORP\bokafor"); // "CORP\\bokafor", i.e. CORP\bokafor as printed
 */
export function restoredBackslashes(text: string): string {
  return text.replace(MISREAD, (c) => MISREAD_ESCAPES[c]!);
}

/**
 * Tool-call arguments with `restoredBackslashes` applied to every string in them, keys and
 * nested values included; anything without such a character is returned as it was (the same
 * object).
 *
 * @example
 * argumentsWithBackslashes({ report: "CORP\bokafor", n: 2 }); // { report: "CORP\\bokafor", n: 2 }
 */
export function argumentsWithBackslashes<T>(args: T): T {
  return restore(args) as T;
}

function restore(value: unknown): unknown {
  if (typeof value === "string")
    return HAS_MISREAD.test(value) ? restoredBackslashes(value) : value;
  if (Array.isArray(value)) {
    const items = value.map(restore);
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (value !== null && typeof value === "object") {
    const original = Object.entries(value);
    const entries = original.map(([k, v]) => [restore(k) as string, restore(v)] as const);
    const changed = entries.some(([k, v], i) => k !== original[i]![0] || v !== original[i]![1]);
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}
