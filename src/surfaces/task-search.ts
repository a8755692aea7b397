/**
 * The handle message's search for the task (SW-27 in docs/architecture.md): the task's own words,
 * searched in the output as `mode="search"` searches it (any script, case and separators aside,
 * rare words first), so the model is shown where the output speaks of what it was asked, whatever
 * the task's words look like. Lines are shown only when they hold a word specific to them (held
 * by at most a tenth of the lines): a word every line has says nothing. The examples the handle
 * message offers come from here too: the task's words the output holds, never a placeholder.
 */
import { grepOutput } from "../retrieval/grep.js";
import { type SearchMatch, searchOutput } from "../retrieval/search.js";
import { foldText, termsOf } from "../retrieval/search-terms.js";
import type { OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";

/** A term held by at most this share of the lines is specific to them. */
const SPECIFIC_SHARE = 0.1;
/** Words of the task in the search example, at most. */
const QUERY_WORDS = 4;
/** Characters of the task searched (a long task is cut: its first words name what it asks). */
const TASK_CHARS = 1_000;

export interface TaskSearch {
  /** The best lines for the task, best first, each holding a specific word. */
  readonly matches: readonly SearchMatch[];
  /** The task's words the output holds, rarest first (a search example). */
  readonly query?: string;
  /** A word of the task as written that the output holds literally (a grep example). */
  readonly literal?: string;
}

const NOTHING: TaskSearch = { matches: [] };

/** The task's words as written: runs between white space, outer punctuation and quotes off. */
function taskWords(task: string): string[] {
  return task
    .split(/\s+/)
    .map((w) => w.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, ""))
    .filter((w) => w.length > 0);
}

/**
 * Searches the output for the task's words.
 *
 * @example
 * await searchForTask(outputs, record, scope, "Which order did request req-4hpi75 handle?");
 * // { matches: [{ line: 347, text: "… req=req-4hpi75 … order=ord-16580 …", … }], query: "req-4hpi75", literal: "req-4hpi75" }
 */
export async function searchForTask(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
  task: string,
  maxLines: number,
): Promise<TaskSearch> {
  if (record.kind === "binary" || task.trim() === "") return NOTHING;
  const opened = await outputs.open(record.id, scope);
  try {
    let found: Awaited<ReturnType<typeof searchOutput>>;
    try {
      found = await searchOutput(opened, {
        query: task.slice(0, TASK_CHARS),
        maxResults: maxLines * 3,
      });
    } catch {
      // A task of common words only, or none: nothing to search for.
      return NOTHING;
    }
    const lines = Math.max(1, found.totalLines);
    const held = found.terms.filter((t) => t.lines > 0);
    const specific = new Set(
      held.filter((t) => t.lines <= Math.max(1, lines * SPECIFIC_SHARE)).map((t) => t.term),
    );
    const matches = found.matches
      .filter((m) => m.terms.some((t) => specific.has(t)))
      .slice(0, maxLines);
    // The task's words that hold a held term, rarest first.
    const weight = new Map(held.map((t) => [t.term, t.weight]));
    const ranked = taskWords(task)
      .map((word) => ({
        word,
        weight: Math.max(0, ...termsOf(word).map((t) => weight.get(foldText(t)) ?? 0)),
      }))
      .filter((w) => w.weight > 0)
      .sort((a, b) => b.weight - a.weight);
    const words = [...new Set(ranked.map((w) => w.word))];
    const query = words.slice(0, QUERY_WORDS).join(" ") || undefined;
    let literal: string | undefined;
    for (const word of words.slice(0, QUERY_WORDS)) {
      if (word.length < 3) continue;
      const hit = await grepOutput(opened, { pattern: word, maxMatches: 1 });
      if (hit.matches.length > 0) {
        literal = word;
        break;
      }
    }
    return { matches, ...(query ? { query } : {}), ...(literal ? { literal } : {}) };
  } finally {
    await opened.close();
  }
}
