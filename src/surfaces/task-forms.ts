/**
 * The lines of an output holding a value of a kind the task names ("the IPv6 address", "the
 * 40-character SHA"), for the handle message's search for the task (SW-33 in
 * docs/architecture.md): a search by words cannot find a value whose words the question does
 * not hold. A kind counts only when few lines hold it, as a word does: an IP address on every
 * line of an access log points nowhere. Looking for kinds takes at most `KIND_BUDGET_MS` per
 * message: a shape's regular expression runs at 10-30 MB/s, and the message is a pointer, not a
 * reason to wait; in a larger output a kind not found in time is left out.
 */
import { grepOutput } from "../retrieval/grep.js";
import type { SearchMatch } from "../retrieval/search.js";
import { valueFormsNamed } from "../retrieval/value-forms.js";
import type { OpenedOutput } from "../store/output-store.js";

export interface TaskForms {
  /** Lines holding a value of a named kind, each scored by how rare its kind is. */
  readonly matches: readonly SearchMatch[];
  /** The shapes of the named kinds that few lines hold: a line matching one answers the task. */
  readonly shapes: readonly RegExp[];
}

/** The time all the kinds a task names may take to look for, together. */
export const KIND_BUDGET_MS = 1_000;

/** No kind named, or none that few lines hold. */
export const NO_FORMS: TaskForms = { matches: [], shapes: [] };

/** What a line holding a kind that `n` of `lines` lines hold weighs: BM25's rarity (idf). */
const rarity = (n: number, lines: number) => Math.log(1 + (lines - n + 0.5) / (n + 0.5));

/**
 * The lines holding values of the kinds `task` names, for kinds held on at most `maxLines`
 * lines, in the order of the output; their scores add to the search's on the same line. The
 * kinds not looked for within `budgetMs`, together, are left out.
 *
 * @example
 * await taskFormLines(opened, "Which IPv6 address is in the log?", 2_000, 15);
 * // { matches: [{ line: 812, text: "… 2001:db8::c207 …", score: 7.2, … }], shapes: [/…/] }
 */
export async function taskFormLines(
  opened: OpenedOutput,
  task: string,
  totalLines: number,
  maxLines: number,
  maxLineChars?: number,
  budgetMs = KIND_BUDGET_MS,
): Promise<TaskForms> {
  const forms = valueFormsNamed(task);
  if (forms.length === 0) return NO_FORMS;
  const matches: SearchMatch[] = [];
  const shapes: RegExp[] = [];
  const deadline = Date.now() + budgetMs;
  for (const form of forms) {
    const timeoutMs = deadline - Date.now();
    if (timeoutMs < 1) break;
    const found = await grepOutput(opened, {
      pattern: form.pattern,
      regex: true,
      timeoutMs,
      maxMatches: maxLines + 1,
      ...(maxLineChars ? { maxLineChars } : {}),
    }).catch(() => undefined);
    // A deadline or no line: this kind points nowhere; too many lines: it says nothing.
    if (!found || found.matches.length === 0 || found.matches.length > maxLines) continue;
    shapes.push(new RegExp(form.pattern));
    const score = rarity(found.matches.length, Math.max(totalLines, found.matches.length));
    for (const hit of found.matches) {
      matches.push({
        outputId: opened.record.id,
        line: hit.line,
        text: hit.text,
        clipped: hit.clipped,
        provenance: hit.provenance,
        score,
        terms: [],
        focusChar: hit.matchCharStart,
      });
    }
  }
  return { matches, shapes };
}

/**
 * The search's lines with the form lines merged in: a line both found keeps the form's excerpt
 * (centred on the value) and the sum of the scores; best first, equal scores in search order.
 *
 * @example
 * mergedByLine(search.matches, forms.matches); // one entry per line, highest score first
 */
export function mergedByLine(
  searched: readonly SearchMatch[],
  formLines: readonly SearchMatch[],
): SearchMatch[] {
  const merged = new Map<number, SearchMatch>();
  for (const match of searched) merged.set(match.line, match);
  for (const line of formLines) {
    const seen = merged.get(line.line);
    merged.set(
      line.line,
      seen ? { ...line, score: seen.score + line.score, terms: seen.terms } : line,
    );
  }
  return [...merged.values()].sort((a, b) => b.score - a.score);
}
