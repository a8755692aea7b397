/**
 * Stamped logs (records.ts): outputs where every line starts with the same kind of field, such
 * as the timestamp a CI runner, `docker logs -t` or `kubectl logs --timestamps` puts before each
 * line the program wrote. A field on every line marks no record: it would make each line a record
 * of its own and cut a stack trace into single frames. Records are judged on the text after the
 * stamp, as in the same log written without stamps ([SW-42](../../docs/architecture.md#spillways-own)).
 */
import { spanOf } from "./record-indent.js";
import { fieldShape, isBlank, type LineWindow } from "./record-lines.js";
import type { FoundRecord } from "./record-types.js";

/** Share of the non-blank head lines that must start with the stamp's shape. */
const STAMP_SHARE = 0.99;
/** Non-blank head lines needed before a stamp is recognised. */
const MIN_STAMPED_LINES = 10;
/** Lines a stamped record may span, at most, whatever the limits shown (a walk stops there). */
const MAX_STAMPED_LINES = 2_000;

/** The first field of a line and the white space after it, when the line starts with a field. */
const FIRST_FIELD = /^(\S+)(\s)/;

/**
 * The shape of the field every line of a head sample starts with (a timestamp), when at least
 * 99% of its non-blank lines (ten or more) start with a field of that one shape followed by white
 * space, the shape holds a digit, and the stamp is seen on a line the program indented (a frame,
 * a wrapped line): a log that stamps only the lines opening its entries is not stamped, its
 * stamp marks records. `null` otherwise.
 *
 * @example
 * lineStamp(ciLogHead); // "9-9-9a9:9:9.9a" (2026-03-20T07:35:45.1756708Z)
 * lineStamp(["2026-03-14 09:26 INFO a", "2026-03-14 09:27 INFO b", …]); // null: no indented line is stamped
 */
export function lineStamp(headLines: readonly string[]): string | null {
  const counts = new Map<string, { lines: number; indented: number }>();
  let lines = 0;
  for (const line of headLines) {
    if (isBlank(line)) continue;
    lines++;
    const match = FIRST_FIELD.exec(line);
    if (match === null) continue;
    const shape = fieldShape(match[1]!);
    const count = counts.get(shape) ?? { lines: 0, indented: 0 };
    count.lines++;
    if (/^\s/.test(line.slice(match[0].length))) count.indented++;
    counts.set(shape, count);
  }
  if (lines < MIN_STAMPED_LINES) return null;
  for (const [shape, count] of counts)
    if (/9/.test(shape) && count.lines >= lines * STAMP_SHARE && count.indented > 0) return shape;
  return null;
}

/**
 * A line without its stamp: the first field, when it has the stamp's shape, and the one white
 * space character after it (a tab or the indentation the program wrote stays).
 *
 * @example
 * withoutStamp("2026-03-20T07:35:45.2827583Z \tat a.B.c(B.java:83)", "9-9-9a9:9:9.9a"); // "\tat a.B.c(B.java:83)"
 */
export function withoutStamp(text: string, stamp: string): string {
  const match = FIRST_FIELD.exec(text);
  return match && fieldShape(match[1]!) === stamp ? text.slice(match[0].length) : text;
}

/** How a line of a stamped log stands: blank (after its stamp), continuing an entry, or not. */
type LineRole = "blank" | "continues" | "own";

/**
 * A line continues the entry above it when its own text, after the stamp, starts with white
 * space (a frame, a wrapped line), or when it has no stamp (the writer did not start a line
 * there); a line with nothing after its stamp is blank.
 */
function roleOf(text: string | undefined, stamp: string): LineRole {
  if (text === undefined) return "blank";
  const own = withoutStamp(text, stamp);
  if (isBlank(own)) return "blank";
  return own === text || /^\s/.test(own) ? "continues" : "own";
}

/**
 * The entry of a stamped log that holds line `at`, when the text after the stamps has no record
 * shape of its own: a line the program wrote unindented, with the indented lines after it (the
 * frames of a stack trace). An unindented line between indented ones (`Caused by: …` between
 * frames) joins the entry. `null` on a blank line, or when the walk finds no line opening the
 * entry.
 *
 * @example
 * await stampedEntry(window, 563, stamp); // lines 564-586 (0-based 563-585): the exception, its frames, its causes
 */
export async function stampedEntry(
  window: LineWindow,
  at: number,
  stamp: string,
): Promise<FoundRecord | null> {
  // Each line's role is asked for up to three times (as itself and as each neighbour's).
  const roles = new Map<number, LineRole>();
  const role = async (i: number) => {
    let known = roles.get(i);
    if (known === undefined) {
      known = roleOf((await window.line(i))?.text, stamp);
      roles.set(i, known);
    }
    return known;
  };
  // A line opens an entry when it is its own, unless it stands between continuing lines.
  const opens = async (i: number) =>
    (await role(i)) === "own" &&
    !((await role(i - 1)) === "continues" && (await role(i + 1)) === "continues");
  if ((await role(at)) === "blank") return null;
  let first = at;
  while (!(await opens(first))) {
    if (first === 0 || at - first >= MAX_STAMPED_LINES || (await role(first - 1)) === "blank")
      return null;
    first--;
  }
  let last = first;
  while (last - first < MAX_STAMPED_LINES) {
    if ((await role(last + 1)) === "blank" || (await opens(last + 1))) break;
    last++;
  }
  return spanOf(window, "log-entry", first, last);
}
