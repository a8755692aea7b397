/**
 * The scripted model that plays a competent agent on spillway's default surface, and a
 * competent extraction model for `get_tool_output(mode="extract")` (map, reduce and the
 * read-grep agent). It answers only from what the requests show it: tool results, chunks,
 * Read and Grep results. Scripted, not a real model; `npm run eval:live` uses a real one.
 */
import {
  type ChatRequest,
  extractionAnswer,
  extractionCall,
  extractionReport,
  findOutputIds,
  noRelevantData,
  type Responder,
  type ScriptedReply,
  textOf,
  toolCall,
  toolMessages,
} from "../src/testing/index.js";
import { ANSWER_PATTERN, answerFrom, answerFromSelection, type Task } from "./workload.js";

export type SpillwayPolicy = "spillway" | "spillway-extract";

/** What the agent reports when it answers: read by the runner after the session. */
export interface AgentRecord {
  readonly answer: string | null;
  /** The tool results of the final request, as the model saw them. */
  readonly toolResults: readonly string[];
  /** Calls after the output arrived. */
  readonly calls: number;
  readonly notes: string[];
}

export interface AgentState {
  readonly tasks: Map<string, { task: Task; workloadId: string; policy: SpillwayPolicy }>;
  readonly records: Map<string, AgentRecord>;
}

const TASK_TAG = /\[task ([^\]]+)\]/;

export function promptOf(task: Task): string {
  return `[task ${task.id}] ${task.question}`;
}

function taskIdIn(text: string): string | undefined {
  return TASK_TAG.exec(text)?.[1];
}

/** Where cue and answer sit in `text`, by the same rule as {@link answerFrom}. */
function locate(
  task: Task,
  text: string,
): { start: number; end: number; answer: string } | undefined {
  if (task.search.regex && !task.search.literal) {
    const m = new RegExp(task.search.regex).exec(text);
    return m ? { start: m.index, end: m.index + m[0].length, answer: m[0] } : undefined;
  }
  const cue = task.search.literal!;
  for (let at = text.indexOf(cue); at !== -1; at = text.indexOf(cue, at + 1)) {
    const window = text.slice(
      Math.max(0, at - task.window.before),
      at + cue.length + task.window.after,
    );
    const found = answerFrom(task, window);
    if (!found) continue;
    const answerAt = text.indexOf(found, Math.max(0, at - task.window.before));
    return {
      start: Math.min(at, answerAt),
      end: Math.max(at + cue.length, answerAt + found.length),
      answer: found,
    };
  }
  return undefined;
}

/** Verbatim quotes for a found needle: the substring on one line, else its first and last lines. */
function quotesOf(text: string, where: { start: number; end: number }): string[] {
  const span = text.slice(where.start, where.end);
  if (!span.includes("\n")) return [span];
  const lineStart = text.lastIndexOf("\n", where.start) + 1;
  const firstEnd = text.indexOf("\n", where.start);
  const lastStart = text.lastIndexOf("\n", where.end - 1) + 1;
  const lastEnd = text.indexOf("\n", where.end);
  return [
    text.slice(lineStart, firstEnd),
    text.slice(lastStart, lastEnd === -1 ? undefined : lastEnd),
  ];
}

/** The extraction model: answers a chunk (map), merges chunk answers (reduce). */
function extractionModel(request: ChatRequest, state: AgentState): ScriptedReply | undefined {
  const call = extractionCall(request);
  if (!call) return undefined;
  const entry = state.tasks.get(taskIdIn(call.query) ?? "");
  if (!entry) return noRelevantData(call.nonce, "an unknown query");
  const { task } = entry;
  if (call.kind === "map") {
    const where = locate(task, call.text);
    if (!where) return noRelevantData(call.nonce, "no line of this chunk mentions it");
    return extractionAnswer(
      call.nonce,
      `The answer is ${where.answer}.`,
      quotesOf(call.text, where),
    );
  }
  if (call.kind === "reduce") {
    const answer =
      (task.search.regex && !task.search.literal
        ? new RegExp(task.search.regex).exec(call.text)?.[0]
        : new RegExp(ANSWER_PATTERN).exec(call.text)?.[0]) ?? undefined;
    if (!answer) return noRelevantData(call.nonce, "no chunk found it");
    const quotes = call.text
      .split("\n")
      .filter((line) => line.startsWith("> ") && line.includes(answer))
      .map((line) => line.slice(2));
    return extractionAnswer(call.nonce, `The answer is ${answer}.`, quotes);
  }
  return readGrepAgent(request, task, call.nonce);
}

/** The read-grep agent: Grep the cue, Read around it, report the lines quoted. */
function readGrepAgent(request: ChatRequest, task: Task, nonce: string): ScriptedReply {
  const results = toolMessages(request);
  const handle = findOutputIds(textOf(request.messages[0]!))[0]!;
  const regex = task.search.regex && !task.search.literal;
  if (results.length === 0)
    return toolCall("Grep", {
      file_path: handle,
      pattern: regex ? task.search.regex! : task.search.literal!,
      ...(regex ? { regex: true } : {}),
    });
  const hit = /\n(\d+):(\d+): /.exec(results[0]!.text);
  if (results.length === 1 && hit) {
    const line = Number(hit[1]);
    const column = Number(hit[2]);
    const longLines = task.kind === "json-min";
    return toolCall(
      "Read",
      longLines
        ? {
            file_path: handle,
            start_char: Math.max(0, column - 1 - task.window.before - 50),
            length: 1500,
          }
        : { file_path: handle, offset: Math.max(1, line - 4), limit: 40 },
    );
  }
  const read = results.at(-1)!.text;
  // Read answers a provenance header line, then the text itself.
  const plain = read.slice(read.indexOf("\n") + 1);
  const where = locate(task, plain);
  if (!where)
    return toolCall("agent__final_report", {
      report: extractionReport(nonce, "NO RELEVANT DATA FOUND: the search did not reach it."),
    });
  return toolCall("agent__final_report", {
    report: extractionReport(nonce, `The answer is ${where.answer}.`, quotesOf(plain, where)),
  });
}

type Step = "extract" | "json" | "grep" | "slice";

function stepsOf(task: Task, policy: SpillwayPolicy): Step[] {
  const steps: Step[] = policy === "spillway-extract" ? ["extract"] : [];
  if (task.search.jsonPath) steps.push("json");
  steps.push("grep", "slice");
  return steps;
}

function grepArgs(task: Task, id: string): Record<string, unknown> {
  const regex = task.search.regex && !task.search.literal;
  const context = task.position === "end-error" ? 3 : task.kind === "json-pretty" ? 20 : 1;
  return {
    id,
    mode: "grep",
    pattern: regex ? task.search.regex : task.search.literal,
    ...(regex ? { regex: true } : {}),
    context,
  };
}

function sliceArgs(task: Task, id: string, grepText: string): Record<string, unknown> | undefined {
  const hit = /\n(\d+):(\d+): /.exec(grepText);
  if (!hit) return undefined;
  const line = Number(hit[1]);
  const column = Number(hit[2]);
  if (task.kind === "json-min")
    return { id, mode: "slice", slice: { start: Math.max(0, column - 1 - 200), length: 1600 } };
  return { id, mode: "slice", slice: { line_start: Math.max(1, line - 4), line_end: line + 40 } };
}

/** The answer a result gives: the extraction's or a JSONPath selection's value, else cue+answer. */
function answerIn(task: Task, step: Step | "output", text: string): string | undefined {
  if (text.startsWith("Error ")) return undefined;
  if (step === "extract" || step === "json") {
    if (task.search.regex && !task.search.literal)
      return new RegExp(task.search.regex).exec(text)?.[0];
    return answerFromSelection(text);
  }
  return answerFrom(task, text);
}

/** The main agent on spillway's surface. */
function mainAgent(request: ChatRequest, state: AgentState): ScriptedReply {
  const user = request.messages.find((m) => m.role === "user");
  const entry = state.tasks.get(taskIdIn(user ? textOf(user) : "") ?? "");
  if (!entry) return { text: "no task" };
  const { task, workloadId, policy } = entry;
  const results = toolMessages(request);
  if (results.length === 0) return toolCall("data__fetch", { output: workloadId });
  const first = results[0]!.text;
  const id = findOutputIds(first)[0];
  const retrievals = results.slice(1).filter((r) => r.toolName === "get_tool_output");
  const steps = stepsOf(task, policy);
  const notes: string[] = [];
  let answer = answerIn(task, "output", first);
  retrievals.forEach((r, i) => {
    answer ??= answerIn(task, steps[i] ?? "slice", r.text);
    if (steps[i] === "extract" && r.text.startsWith("Error "))
      notes.push(`extraction: ${r.text.split(":")[0]}`);
  });
  const finish = (value: string | undefined) => {
    state.records.set(task.id, {
      answer: value ?? null,
      toolResults: results.map((r) => r.text),
      calls: results.length - 1,
      notes,
    });
    return toolCall("agent__final_report", { report: value ?? "I could not find it." });
  };
  if (answer || !id) return finish(answer);
  // A fetch that went on in the background: wait for it once (never happens at these sizes).
  if (
    first.includes("When the System Notice shows") &&
    !results.some((r) => r.toolName === "wait_for_tool_output")
  )
    return toolCall("wait_for_tool_output", {});
  const step = steps[retrievals.length];
  if (step === "extract")
    return toolCall("get_tool_output", { id, mode: "extract", query: promptOf(task) });
  if (step === "json")
    return toolCall("get_tool_output", { id, mode: "json", json_query: task.search.jsonPath });
  if (step === "grep") return toolCall("get_tool_output", grepArgs(task, id));
  if (step === "slice") {
    const grepText = retrievals[steps.indexOf("grep")]?.text ?? "";
    const args = sliceArgs(task, id, grepText);
    if (args) return toolCall("get_tool_output", args);
  }
  return finish(undefined);
}

/** The scripted model of the spillway policies: the extraction model, else the main agent. */
export function spillwayResponder(state: AgentState): Responder {
  return (request) => extractionModel(request, state) ?? mainAgent(request, state);
}
