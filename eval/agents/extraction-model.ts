/**
 * The blind scripted extraction model behind `get_tool_output(mode="extract")`: it sees what
 * spillway's extraction prompts show (the query, a chunk; the chunk answers; the read-grep
 * agent's Read and Grep results) and answers in their contract, quoting verbatim the lines it
 * relied on. It reads with the same reader as the agents, from the query's words alone.
 */
import {
  type ChatRequest,
  extractionAnswer,
  extractionCall,
  extractionReport,
  findOutputIds,
  noRelevantData,
  type ScriptedReply,
  textOf,
  toolCall,
  toolMessages,
} from "../../src/testing/index.js";
import { parseQuestion, searchTermOf } from "./question.js";
import { readAnswer } from "./reader.js";

/** Characters of a quote taken around the value when its line is longer. */
const QUOTE_AROUND = 120;

/** Verbatim quotes: whole lines when short, else the text around the value on that line. */
function quotesOf(lines: readonly string[], value: string): string[] {
  return lines.map((line) => {
    if (line.length <= 300) return line;
    const at = line.indexOf(value);
    const from = Math.max(0, (at === -1 ? 0 : at) - QUOTE_AROUND);
    return line.slice(from, (at === -1 ? 0 : at) + value.length + QUOTE_AROUND);
  });
}

/** A slice result's body: the text after its one-line provenance header. */
const bodyOf = (result: string) => result.slice(result.indexOf("\n") + 1);

/** The read-grep agent: Grep the question's term, Read around the first hit, report. */
function readGrep(request: ChatRequest, query: string, nonce: string): ScriptedReply {
  const q = parseQuestion(query);
  const term = searchTermOf(q);
  const results = toolMessages(request);
  const handle = findOutputIds(textOf(request.messages[0]!))[0] ?? "";
  const finish = (answer: string, quotes: string[] = []) =>
    toolCall("agent__final_report", { report: extractionReport(nonce, answer, quotes) });
  if (!term) return finish("NO RELEVANT DATA FOUND\nThe query names nothing to search for.");
  if (results.length === 0)
    return toolCall("Grep", {
      file_path: handle,
      pattern: term.pattern,
      ...(term.regex ? { regex: true } : {}),
      context: q.before ? 6 : 2,
    });
  for (const result of results) {
    const reading = readAnswer(q, result.toolName === "Read" ? bodyOf(result.text) : result.text);
    if (reading.kind === "answer" && result.toolName === "Read")
      return finish(`The answer is ${reading.value}.`, quotesOf(reading.lines, reading.value));
    if (reading.kind === "answer" && term.regex)
      return finish(`The answer is ${reading.value}.`, [reading.value]);
  }
  const hit = /^(\d+):(\d+): (.*)$/m.exec(results[0]!.text);
  if (results.length === 1 && hit) {
    const line = Number(hit[1]);
    const column = Number(hit[2]);
    return toolCall(
      "Read",
      hit[3]!.includes("[excerpt of a long line")
        ? { file_path: handle, start_char: Math.max(0, column - 1 - 600), length: 2000 }
        : { file_path: handle, offset: Math.max(1, line - 8), limit: 50 },
    );
  }
  return finish("NO RELEVANT DATA FOUND\nThe search did not reach it.");
}

/**
 * The extraction model's reply to an extraction call, or undefined when the request is not one.
 *
 * @example
 * const respond: Responder = (request) => extractionModel(request) ?? mainAgent(request);
 */
export function extractionModel(request: ChatRequest): ScriptedReply | undefined {
  const extraction = extractionCall(request);
  if (!extraction) return undefined;
  const { nonce, query } = extraction;
  const q = parseQuestion(query);
  if (extraction.kind === "map") {
    const reading = readAnswer(q, extraction.text);
    if (reading.kind !== "answer") return noRelevantData(nonce, "no record here answers it");
    return extractionAnswer(
      nonce,
      `The answer is ${reading.value}.`,
      quotesOf(reading.lines, reading.value),
    );
  }
  if (extraction.kind === "reduce") {
    // The chunk answers whose own quotes show the answer; the first one wins.
    for (const block of extraction.text.split(/\n(?=--- chunk )/)) {
      const quotes = block
        .split("\n")
        .filter((line) => line.startsWith("> "))
        .map((line) => line.slice(2));
      const reading = readAnswer(q, quotes.join("\n"));
      if (reading.kind === "answer")
        return extractionAnswer(nonce, `The answer is ${reading.value}.`, quotes);
    }
    return noRelevantData(nonce, "no chunk answer quotes it");
  }
  return readGrep(request, query, nonce);
}
