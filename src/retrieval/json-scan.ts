/**
 * A JSON-aware scan of a window of text (strings and escapes respected) that finds the
 * containers enclosing one offset, for records.ts. The window may start anywhere, even inside
 * a string: the scan then tries both states and keeps the one under which the text reads as
 * JSON (see {@link jsonReading}).
 */

import { parsesAsJson } from "../core/kinds.js";

/** How a container sits in its parent. */
export type Placement = "element" | "member" | "root" | "unknown";

/** A container (`{…}` or `[…]`) around the offset, as offsets into the window. */
export interface EnclosingContainer {
  readonly open: number;
  /** Offset of the closing bracket, or null when it lies past the window. */
  readonly close: number | null;
  readonly object: boolean;
  /** element: in an array (or after another top-level value); member: a key's value. */
  readonly placement: Placement;
}

const isSpace = (c: string) => c === " " || c === "\n" || c === "\r" || c === "\t";
const LITERALS = new Set(["true", "false", "null"]);

/**
 * Counts what reads as invalid JSON when the window starts outside a string (or inside one):
 * words that are not literals, quotes where a string cannot start or end. The wrong guess
 * reads string contents as structure and collects violations at once.
 */
function violations(text: string, inString: boolean, limit: number): number {
  let count = 0;
  let state = inString;
  let previous = ""; // last significant character outside strings
  const end = Math.min(text.length, limit);
  for (let i = 0; i < end; i++) {
    const c = text[i]!;
    if (state) {
      if (c === "\\") i++;
      else if (c === '"') {
        state = false;
        previous = '"';
      }
      continue;
    }
    if (isSpace(c)) continue;
    if (c === '"') {
      if (previous !== "" && !"{[,:".includes(previous)) count++;
      state = true;
      continue;
    }
    if (previous === '"' && !",:}]".includes(c)) count++;
    if ("{}[],:".includes(c)) {
      previous = c;
      continue;
    }
    if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (j < end && /[A-Za-z]/.test(text[j]!)) j++;
      const word = text.slice(i, j);
      // A number's exponent ("1e5") is letters too; a cut word at the window's edge is not counted.
      if (!LITERALS.has(word) && !/^[eE]$/.test(word) && i > 0 && j < end) count++;
      i = j - 1;
      previous = "w";
      continue;
    }
    if (/[0-9.+-]/.test(c)) {
      previous = "n";
      continue;
    }
    count++;
    previous = c;
  }
  return count;
}

/** Characters of a window read to tell its string state and whether it is JSON at all. */
const SAMPLE_CHARS = 64 * 1024;

/**
 * How `text` from `from` reads as JSON: whether it starts inside a string (`unknown`: the
 * window was cut at an unknown point, so both states are tried and the one under which it
 * reads as JSON wins), and how many violations that reading counts (0 for JSON, a few where a
 * cut token meets the window's edge; many for text that only has brackets).
 */
export function jsonReading(
  text: string,
  from: number,
  unknown: boolean,
): { readonly inString: boolean; readonly violations: number } {
  const sample = text.slice(from, from + SAMPLE_CHARS);
  const outside = violations(sample, false, SAMPLE_CHARS);
  if (!unknown) return { inString: false, violations: outside };
  const inside = violations(sample, true, SAMPLE_CHARS);
  return inside < outside
    ? { inString: true, violations: inside }
    : { inString: false, violations: outside };
}

/**
 * The containers enclosing offset `at` of `text`, outermost first, found by a scan from
 * `from` (where the string state is `inString`). `atOutputStart` says `from` is the output's
 * first character, so a container with nothing before it is the document's root.
 *
 * @example
 * enclosingContainers('{"a":[{"b":1}]}', 0, false, 11, true);
 * // [{ open: 0, close: 14, object: true, placement: "root" }, { open: 5, …, object: false, placement: "member" },
 * //  { open: 6, close: 12, object: true, placement: "element" }]
 */
export function enclosingContainers(
  text: string,
  from: number,
  inString: boolean,
  at: number,
  atOutputStart: boolean,
): EnclosingContainer[] {
  interface Open {
    open: number;
    close: number | null;
    object: boolean;
    placement: Placement;
  }
  const stack: Open[] = [];
  let enclosing: Open[] | null = null;
  let state = inString;
  let previous = "";
  for (let i = from; i < text.length; i++) {
    if (i === at && enclosing === null) enclosing = [...stack];
    const c = text[i]!;
    if (state) {
      if (c === "\\") {
        if (i + 1 === at && enclosing === null) enclosing = [...stack];
        i++;
      } else if (c === '"') {
        state = false;
        previous = '"';
      }
      continue;
    }
    if (isSpace(c)) continue;
    if (c === '"') state = true;
    else if (c === "{" || c === "[") {
      stack.push({ open: i, close: null, object: c === "{", placement: placementAfter(previous) });
      if (previous === "" && !atOutputStart) stack[stack.length - 1]!.placement = "unknown";
    } else if (c === "}" || c === "]") {
      const top = stack.pop();
      if (top) top.close = i;
      // Every container around `at` has closed: nothing further changes the answer.
      if (enclosing !== null && stack.length < enclosing.length && stack.length === 0) break;
    }
    previous = c;
  }
  return enclosing ?? [...stack];
}

function placementAfter(previous: string): Placement {
  if (previous === "[" || previous === ",") return "element";
  if (previous === ":") return "member";
  // After a closed value at top level: the next value of a stream (JSON lines, concatenated).
  if (previous === "}" || previous === "]") return "element";
  if (previous === "") return "root";
  return "unknown";
}

/**
 * True when `text` (one line, trimmed) is one complete JSON container: it opens at its first
 * character, its bracket closes at its last (a trailing comma allowed), and it parses. Balanced
 * brackets alone also fit an INI or TOML section header (`[pkg.rustfmt-preview]`), which is no
 * record on its own: the lines under it are its fields (SW-66 in docs/architecture.md).
 */
export function isWholeContainer(text: string): boolean {
  const body = text.trim().replace(/,$/, "");
  return closesAtEnd(body) && parsesAsJson(body);
}

/** `body` opens with a bracket whose match is its last character (strings skipped). */
function closesAtEnd(body: string): boolean {
  if (!(body.startsWith("{") || body.startsWith("["))) return false;
  let depth = 0;
  let state = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (state) {
      if (c === "\\") i++;
      else if (c === '"') state = false;
      continue;
    }
    if (c === '"') state = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i === body.length - 1;
      if (depth < 0) return false;
    }
  }
  return false;
}
