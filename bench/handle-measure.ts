/**
 * The handle message next to its floor, in one run: the message a model is shown for a stored
 * output, with a task that names the planted needle as a person would write it, against one
 * search of the same output for the same task (the part of the message that reads the whole
 * output; the rest reads windows: the task's words counted, the best lines' records, the
 * synopsis). Measured on the fixtures whose records nest or sit on many lines.
 */
import { searchOutput } from "../src/retrieval/search.js";
import type { OutputRecord } from "../src/store/output-store.js";
import type { SqliteOutputStore } from "../src/store/sqlite-output-store.js";
import { defaultHandleMessage } from "../src/surfaces/handle-message.js";
import { type FixtureKind, NEEDLE } from "./fixtures.js";
import { forceGc, SCOPE } from "./measure.js";
import { median, ms, table } from "./report.js";

/** The fixtures the handle message is measured on. */
export const HANDLE_KINDS: readonly FixtureKind[] = ["log", "json-pretty"];

/** A question about the needle, with words the output holds on many lines (level, status). */
export const HANDLE_TASK = "Which request logged needle 7f3a9c, and what was its status and level?";
/**
 * The same question with a threshold (`thresholdLines`): the message also scans the output for
 * values of time past it, the costliest case being an output where few lines hold one.
 */
export const HANDLE_THRESHOLD_TASK =
  "Which request logged needle 7f3a9c, and did it take longer than 2 seconds?";
/**
 * The same question naming values by their forms (`formLines`): the message also scans the
 * output for each form named (here IPv4 and IPv6 addresses and UUIDs), the costliest case being
 * an output holding none, scanned to its end once per form.
 */
export const HANDLE_FORM_TASK =
  "Which request logged needle 7f3a9c, and which IP address or UUID did it come from?";

const TASK_TEXT = {
  words: HANDLE_TASK,
  threshold: HANDLE_THRESHOLD_TASK,
  form: HANDLE_FORM_TASK,
} as const;

export interface HandleRow {
  readonly kind: FixtureKind;
  /** The task's words alone, with a threshold, or with forms of value the message scans for. */
  readonly task: keyof typeof TASK_TEXT;
  readonly mb: number;
  /** Median ms of the handle message and of one search for the task (the floor). */
  readonly handleMs: number;
  readonly searchMs: number;
  readonly ratio: number;
  readonly handleRuns: number[];
  readonly searchRuns: number[];
  /** The message shows the needle's line. */
  readonly ok: boolean;
}

/** Times the handle message and the search, for each task, alternating, `repeats` times each. */
export async function measureHandle(
  store: SqliteOutputStore,
  record: OutputRecord,
  kind: FixtureKind,
  mb: number,
  repeats: number,
): Promise<HandleRow[]> {
  if (!HANDLE_KINDS.includes(kind)) return [];
  return [
    await measureTask(store, record, kind, mb, repeats, "words"),
    await measureTask(store, record, kind, mb, repeats, "threshold"),
    await measureTask(store, record, kind, mb, repeats, "form"),
  ];
}

async function measureTask(
  store: SqliteOutputStore,
  record: OutputRecord,
  kind: FixtureKind,
  mb: number,
  repeats: number,
  task: HandleRow["task"],
): Promise<HandleRow> {
  const taskText = TASK_TEXT[task];
  const handleRuns: number[] = [];
  const searchRuns: number[] = [];
  let ok = true;
  for (let r = 0; r < repeats; r++) {
    forceGc();
    let started = performance.now();
    const message = await defaultHandleMessage(record, store, SCOPE, 5, {
      taskText,
      taskRecord: true,
      thresholdLines: task === "threshold",
      formLines: task === "form",
    });
    handleRuns.push(performance.now() - started);
    ok &&= message.includes(NEEDLE);
    forceGc();
    const opened = await store.open(record.id, SCOPE);
    try {
      started = performance.now();
      await searchOutput(opened, { query: taskText, maxResults: 27 });
      searchRuns.push(performance.now() - started);
    } finally {
      await opened.close();
    }
  }
  const handleMs = median(handleRuns);
  const searchMs = median(searchRuns);
  return {
    kind,
    task,
    mb,
    handleMs,
    searchMs,
    ratio: handleMs / searchMs,
    handleRuns,
    searchRuns,
    ok,
  };
}

export function handleTable(rows: readonly HandleRow[]): string {
  return table(
    `HANDLE  defaultHandleMessage with a task vs one search of the output for the task (floor), median of ${rows[0]?.handleRuns.length ?? 0}`,
    ["kind", "task", "size", "handle message", "search", "ratio", "check"],
    rows.map((r) => [
      r.kind,
      r.task,
      `${r.mb} MB`,
      `${ms(r.handleMs)} ms`,
      `${ms(r.searchMs)} ms`,
      `${r.ratio.toFixed(2)}x`,
      r.ok ? "ok" : "WRONG (needle not shown)",
    ]),
  );
}
