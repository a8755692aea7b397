/**
 * The model's first read a proxy can play without a model: `get_tool_output`'s search of the
 * task's file by the task's own words, as a model that copies its question into `query` makes
 * it, or by the handle message's example query, as a model that copies the example makes it.
 * The best result is the search with `max_results: 1` (the best line inside its record); the
 * answer is the search with its default count, within a read's budget.
 */
import type { OutputRecord, OutputStore, ReadScope } from "../src/store/output-store.js";
import { createGetToolOutputSurface } from "../src/surfaces/get-tool-output.js";
import type { SurfaceContext } from "../src/surfaces/surface.js";

/** Characters a read's answer may take (a small model's budget in the live benchmark's window). */
const READ_CHARS = 8_000;

/**
 * The query of the handle message's example search call (a line of its own, after the output's
 * lines, which could hold such text), or undefined when it shows none.
 */
export function exampleQuery(message: string): string | undefined {
  const examples = message.slice(message.lastIndexOf("\nRead it with:\n") + 1);
  const call = /^ {2}get_tool_output\(id="[^"]+", mode="search", query=("(?:[^"\\]|\\.)*")\)/m.exec(
    examples,
  );
  return call ? (JSON.parse(call[1]!) as string) : undefined;
}

/**
 * The best result and the whole answer of a search of `record` by `question`.
 *
 * @example
 * const { best, answer } = await searchByQuestion(store, record, scope, task.question);
 */
export async function searchByQuestion(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
  question: string,
): Promise<{ best: string; answer: string }> {
  const surface = createGetToolOutputSurface({ synopsisLines: 5 });
  const context: SurfaceContext = {
    outputs,
    scope,
    maxChars: READ_CHARS,
    tokenizer: "o200k_base",
    outputOfToolCall: async () => undefined,
  };
  const search = async (extra: Record<string, unknown>) =>
    (
      await surface.execute(
        "get_tool_output",
        { id: record.id, mode: "search", query: question, ...extra },
        context,
      )
    ).text;
  return { best: await search({ max_results: 1 }), answer: await search({}) };
}
