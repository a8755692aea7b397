/**
 * The handle message's section for the task: the lines the task search found, the best inside
 * its record (SW-27, SW-32 in docs/architecture.md). It is a pointer, labelled as lines to check
 * against the task, never as the answer.
 */
import { clipAround } from "../core/clip-text.js";
import { recordShows } from "../retrieval/record-matches.js";
import type { MatchRecord } from "../retrieval/record-types.js";
import type { SearchMatch } from "../retrieval/search.js";
import type { OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";
import { recordBody, recordHeader, searchMatchAt } from "./get-tool-output/match-records.js";
import { withRarestShown } from "./task-rarest.js";
import { rankedByRecord, TASK_RECORD } from "./task-record.js";
import { searchForTask, type TaskSearch } from "./task-search.js";

/** Characters of one line the model is shown; longer lines are cut (and say their length). */
export const SYNOPSIS_LINE_CHARS = 200;

/** The guidance switches the task's section follows (docs/agent-runtime.md lists them). */
export interface TaskSectionOptions {
  readonly taskRecord?: boolean;
}

/** Lines of the task search shown in the handle message. */
const TASK_LINES = 3;
/**
 * Lines of the task search ranked by their records before the best are shown: many lines can
 * hold the same words (a region on every row of its table), and the record decides between them.
 */
const TASK_CANDIDATES = 30;
/**
 * A task search line, cut around its rarest matched word (where the search centred it), so a
 * long line shows the part the task asked about rather than its start.
 */
const searchRow = (m: SearchMatch, maxChars = SYNOPSIS_LINE_CHARS) =>
  `  ${m.line}| ${clipAround(m.text, m.focusChar - m.provenance.charStart, maxChars)}`;

/**
 * A record's lines as the handle message numbers lines (`  LINE| text`), under its header, which
 * names the lines the search found in it.
 */
function recordRows(id: string, record: MatchRecord, foundLines: readonly number[]): string[] {
  const body = recordBody(record, new Map(), (line, text) => `  ${line}| ${text}`);
  const lines = [...new Set(foundLines)].map((line) => line.toLocaleString("en-US"));
  const found = `; the search found line${lines.length === 1 ? "" : "s"} ${lines.join(", ")}]`;
  return [`  ${recordHeader(id, record).slice(0, -1)}${found}`, ...body.split("\n")];
}

/** The first words of the task search's section, whatever the switch says after them. */
export const TASK_SEARCH_HEAD =
  "A search of it for the words of your task found these lines (best first).";
const SHOWN_SEARCH_LABEL = `${TASK_SEARCH_HEAD} One of them may answer your task: check it against what your task asks, and read more when none does.`;

/**
 * The task search's best lines, labelled as what they are: lines of the output, one of which may
 * answer the task, to be checked against it. The best comes inside its record when it has one;
 * lines that record holds are not repeated. With `wholeBest`, when the best line is its own
 * record (a JSON-lines event, a long log line), the lines share a record's bound instead of each
 * being cut short: the fields beside the one a line was found by are what a question asks for,
 * and the best line is not always the one asked about.
 */
function searchLines(
  id: string,
  search: TaskSearch,
  best: MatchRecord | undefined,
  wholeBest: boolean,
): string[] {
  if (search.matches.length === 0) return [];
  const inBest = search.matches.map((m, i) =>
    best ? i === 0 || recordShows(best, searchMatchAt(m)) : false,
  );
  const found = search.matches.filter((_, i) => inBest[i]).map((m) => m.line);
  const rest = search.matches.filter((_, i) => !inBest[i]);
  const rowChars =
    wholeBest && !best
      ? Math.max(SYNOPSIS_LINE_CHARS, Math.floor(TASK_RECORD.maxChars / rest.length))
      : SYNOPSIS_LINE_CHARS;
  return [
    "",
    SHOWN_SEARCH_LABEL,
    ...(best ? recordRows(id, best, found) : []),
    ...rest.map((m) => searchRow(m, rowChars)),
  ];
}

/** The lines the task search's section shows: its lines, and those of the best line's record. */
function linesShown(search: TaskSearch, best: MatchRecord | undefined): Set<number> {
  const shown = new Set(search.matches.map((m) => m.line));
  if (best)
    for (let line = best.provenance.lineStart; line <= best.provenance.lineEnd; line++)
      shown.add(line);
  return shown;
}

/** What the message shows of the task search: its lines and the best one's record. */
export interface TaskSection {
  readonly search?: TaskSearch;
  readonly best?: MatchRecord;
}

/**
 * The task search's lines and, with `withRecord`, the best one's record: the search asks for
 * more lines than are shown, so ranking them by their records can bring a line forward.
 */
export async function taskSection(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
  task: string,
  options: TaskSectionOptions,
): Promise<TaskSection> {
  const withRecord = options.taskRecord === true;
  const lines = withRecord ? TASK_CANDIDATES : TASK_LINES;
  const search = await searchForTask(outputs, record, scope, task, lines, {
    maxLineChars: TASK_RECORD.maxChars,
  });
  const ranked = withRecord
    ? await rankedByRecord(outputs, record, scope, search).catch(() => undefined)
    : undefined;
  const matches = withRarestShown(
    ranked?.matches ?? search.matches,
    TASK_LINES,
    search.rarest ?? [],
    ranked?.best,
  );
  return { search: { ...search, matches }, ...(ranked?.best ? { best: ranked.best } : {}) };
}

/**
 * The section's lines as the message shows them, and every line they show (the synopsis leaves
 * those out): the search's lines and the best one's record.
 *
 * @example
 * const { lines, shown } = taskSectionLines("out_1", await taskSection(outputs, record, scope, task, { taskRecord: true }), true);
 */
export function taskSectionLines(
  id: string,
  section: TaskSection,
  taskRecord: boolean,
): { lines: string[]; shown?: Set<number> } {
  const { search, best } = section;
  if (!search) return { lines: [] };
  return { lines: searchLines(id, search, best, taskRecord), shown: linesShown(search, best) };
}
