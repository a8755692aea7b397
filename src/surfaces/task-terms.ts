import { escapeRegExp } from "../core/escape-regexp.js";
import { grepOutput } from "../retrieval/grep.js";
import type { OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";

/** A term of the task found in an output, and the JSON key whose value it is, if any. */
export interface TaskTermMatch {
  readonly term: string;
  readonly jsonKey?: string;
}

/**
 * The JSONPath query for every object whose `key` holds `literal` (a number, or a string in
 * single quotes: nothing to escape inside a call's double-quoted argument).
 *
 * @example
 * objectQuery("id", "'ord_1'"); // "$..[?(@.id=='ord_1')]"
 */
export function objectQuery(key: string, literal: string): string {
  return `$..[?(@.${key}==${literal})]`;
}

/** Task terms checked against an output, at most: each is one literal search. */
const MAX_TERMS_CHECKED = 6;

/**
 * The identifiers a task names, in order: quoted strings, and words with a digit, an underscore
 * or a hyphen inside (`evt_ntngab003`, `ord_89309srrp`, `req-7731`), at least 4 characters.
 * Plain words are left out: they match too much to be worth a grep.
 *
 * @example
 * taskTerms('What is the refund reference for event evt_ntngab003?'); // ["evt_ntngab003"]
 */
export function taskTerms(taskText: string): string[] {
  const terms: string[] = [];
  for (const match of taskText.matchAll(
    /["'`]([^"'`\n]{4,80})["'`]|([A-Za-z0-9][\w.:/-]*[A-Za-z0-9])/g,
  )) {
    const term = match[1] ?? match[2]!;
    if (match[2] !== undefined && (term.length < 4 || !/[\d_-]/.test(term))) continue;
    if (!terms.includes(term)) terms.push(term);
  }
  return terms;
}

/** Lines a task asks for by number. */
export interface TaskLines {
  readonly start: number;
  readonly end: number;
}

/**
 * The first line range a task names ("line 135", "lines 40-60", "lines 40 to 60") that lies
 * inside an output of `lineCount` lines.
 *
 * @example
 * taskLines("Read line 135 and report its checksum.", 300); // { start: 135, end: 135 }
 * taskLines("Read line 135.", 100); // undefined: the output has 100 lines
 */
export function taskLines(taskText: string, lineCount: number): TaskLines | undefined {
  for (const match of taskText.matchAll(
    /\blines?\s+(\d{1,9})(?:\s*(?:-|–|to|through)\s*(\d{1,9}))?/gi,
  )) {
    const start = Number(match[1]);
    const end = match[2] === undefined ? start : Number(match[2]);
    if (start >= 1 && end >= start && end <= lineCount) return { start, end };
  }
  return undefined;
}

/** Whether the output holds `literal` (one literal search, not counted as a retrieval). */
export async function outputHolds(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
  literal: string,
): Promise<boolean> {
  const opened = await outputs.open(record.id, scope);
  try {
    return (await grepOutput(opened, { pattern: literal, maxMatches: 1 })).matches.length > 0;
  } finally {
    await opened.close();
  }
}

/**
 * The first identifier of the task that the output holds, for the handle message's grep
 * example: a term from the task, found in the output, is what the model is looking for.
 * Terms the output does not hold (the tool's name, a document id) are passed over. The search
 * is not counted as a retrieval (the model has read nothing yet).
 *
 * @example
 * await taskTermIn(outputs, record, scope, "Which refund reference has event evt_ntngab003?");
 * // { term: "evt_ntngab003" } when the output holds it; { term, jsonKey: "id" } for `"id": "evt_…"`
 */
export async function taskTermIn(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
  taskText: string,
): Promise<TaskTermMatch | undefined> {
  const terms = taskTerms(taskText).slice(0, MAX_TERMS_CHECKED);
  if (terms.length === 0 || record.kind === "binary") return undefined;
  const opened = await outputs.open(record.id, scope);
  try {
    for (const term of terms) {
      const found = await grepOutput(opened, { pattern: term, maxMatches: 1 });
      const line = found.matches[0]?.text;
      if (line === undefined) continue;
      // In JSON, the key that holds the term as its whole string value: `"id": "ord_1"`.
      const key = new RegExp(
        `"([A-Za-z_$][\\w$]*)"\\s*:\\s*${escapeRegExp(JSON.stringify(term))}`,
      ).exec(line)?.[1];
      return key === undefined ? { term } : { term, jsonKey: key };
    }
    return undefined;
  } finally {
    await opened.close();
  }
}
