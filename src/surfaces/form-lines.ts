/**
 * The handle message's lines holding a value of a form the task names (the `formLines` guidance
 * switch, SW-53 in docs/architecture.md): "which IPv6 address", "the 40-character SHA", "the
 * 13-digit code". The output never writes the form's name, only values of its shape, so the
 * task search cannot find them; a form held in few places is what the question asks for, and
 * is listed in the output's order with how many there are, as the lines past a threshold are.
 */
import { defaultPatternTimeoutMs, grepOutput } from "../retrieval/grep.js";
import type { OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";
import { withoutLocations } from "./task-search.js";
import { type ValueForm, valueFormsNamed } from "./task-value-forms.js";

/** Places shown per form; the rest are counted. */
const SHOWN_PLACES = 5;
/**
 * A form held in more places than this says nothing about the task (an IPv4 address on every
 * line of an access log), and gets no section.
 */
export const MAX_FORM_PLACES = 20;
const LINE_CHARS = 200;

/** One place holding a value of the form: its line, or an excerpt of a long line around it. */
export interface FormPlace {
  readonly line: number;
  readonly text: string;
}

/** A form the task names that the output holds in a few places. */
export interface FormLines {
  readonly form: ValueForm;
  /** The first places, in the output's order. */
  readonly places: readonly FormPlace[];
  /** Places holding one (each on its own line, or apart on a long line). */
  readonly count: number;
}

/**
 * The forms `task` names that the output holds in 1 to `MAX_FORM_PLACES` places, each with its
 * first places, or an empty list. One deadline bounds every form's scan; a form not scanned to
 * the end in time is left out rather than miscounted.
 *
 * @example
 * await formLines(outputs, record, scope, "Which IPv6 address is in the log?");
 * // [{ form: { name: "IPv6 address", … }, places: [{ line: 812, text: "… 2001:db8::c207 …" }], count: 1 }]
 */
export async function formLines(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
  task: string,
): Promise<FormLines[]> {
  if (record.kind === "binary") return [];
  const forms = valueFormsNamed(withoutLocations(task, record.toolArgs));
  if (forms.length === 0) return [];
  const deadline = performance.now() + defaultPatternTimeoutMs(record.byteSize ?? 0);
  const opened = await outputs.open(record.id, scope);
  try {
    const found: FormLines[] = [];
    for (const form of forms) {
      const left = Math.ceil(deadline - performance.now());
      if (left <= 0) break;
      const grep = await grepOutput(opened, {
        pattern: form.pattern,
        regex: true,
        maxMatches: MAX_FORM_PLACES + 1,
        maxLineChars: LINE_CHARS,
        timeoutMs: left,
      });
      const count = grep.matches.length;
      if (count === 0 || count > MAX_FORM_PLACES || grep.stoppedAtLine != null) continue;
      const places = grep.matches
        .slice(0, SHOWN_PLACES)
        .map((match) => ({ line: match.line, text: match.text }));
      found.push({ form, places, count });
    }
    return found;
  } finally {
    await opened.close();
  }
}

/**
 * The section as the handle message shows it: per form a head naming it and the count, then its
 * places (`  LINE| text`); nothing when no form was found in few places.
 *
 * @example
 * formSectionLines([{ form: { name: "UUID", pattern: "…" }, places: [{ line: 96, text: "…" }], count: 1 }]);
 * // ["", "Your task names a value by its form (UUID). One place in this output holds one:", "  96| …"]
 */
export function formSectionLines(found: readonly FormLines[]): string[] {
  return found.flatMap(({ form, places, count }) => {
    const head = `Your task names a value by its form (${form.name}).`;
    const where =
      count === 1
        ? "One place in this output holds one:"
        : `${count} places in this output hold one (${count > places.length ? `the first ${places.length} shown, ` : ""}in their order):`;
    return ["", `${head} ${where}`, ...places.map((place) => `  ${place.line}| ${place.text}`)];
  });
}
