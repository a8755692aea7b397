/**
 * The scripted model of the async-tools benchmark: deterministic policies that decide every
 * reply from what the request shows (tool results, the declared tools, the System Notice), so
 * the same policy drives the async run and the `async: false` run.
 */
import {
  type ChatRequest,
  findOutputIds,
  lastMessage,
  type Responder,
  type ScriptedReply,
  type ScriptedToolCall,
  type ToolResultMessage,
  textOf,
  toolCall,
  toolMessages,
} from "../src/testing/index.js";

export const SLOW = "test__slow";
export const ECHO = "test__echo";
export const HELPER = "agent__helper";
const WAIT = "wait_for_tool_output";
const GET = "get_tool_output";
const REPORT = "agent__final_report";

/** The system prompt of the helper agent: how the policy tells a helper's request apart. */
export const HELPER_PROMPT = "You are a helper: run one slow job and report its text.";
export const PARENT_PROMPT = "You are the parent: hand both jobs to helpers and report both.";

/** The text the i-th slow job returns (and the report must contain). */
export const jobText = (i: number) => `job ${i}`;

/** The texts a scenario's final report must contain. */
export const helperText = (task: string) => `${task} done`;

const slowCall = (seconds: number, text: string): ScriptedToolCall => ({
  name: SLOW,
  arguments: { seconds, text },
});
const echoCall = (text: string): ScriptedToolCall => ({ name: ECHO, arguments: { text } });
const calls = (...toolCalls: ScriptedToolCall[]): ScriptedReply => ({ toolCalls });

/**
 * A result that only says "running in the background": spillway's text (`X goes on in the
 * background; its output will be stored as out_…`) or, with the compatibility texts, D3-13's (`Tool
 * Output ID: out_…`).
 */
const isAsyncId = (result: ToolResultMessage) =>
  /^(?:Tool Output ID: out_|\S+ goes on in the background; its output will be stored as out_)/.test(
    result.text,
  );

/** The System Notice of a request (the last user message of each model request). */
const noticeOf = (request: ChatRequest) => textOf(lastMessage(request));

/** get_tool_output's raw answer: a provenance header line, then the output. */
const bodyOf = (text: string) => text.split("\n").slice(1).join("\n");

/**
 * Once every job is started: report the inline results at once, or (when some went async)
 * wait while the notice shows tools running, then read every async id raw in one reply, then
 * report the inline results and the reads.
 */
function collect(request: ChatRequest, started: readonly ToolResultMessage[]): ScriptedReply {
  const inline = started.filter((r) => !isAsyncId(r)).map((r) => r.text);
  const ids = started.filter(isAsyncId).flatMap((r) => findOutputIds(r.text));
  const reads = toolMessages(request).filter((r) => r.toolName === GET);
  if (ids.length > 0 && reads.length === 0) {
    if (/### Running/.test(noticeOf(request))) return toolCall(WAIT, {});
    return calls(...ids.map((id) => ({ name: GET, arguments: { id, mode: "raw" } })));
  }
  const texts = [...inline, ...reads.map((r) => bodyOf(r.text))];
  return toolCall(REPORT, { report: texts.join("\n") });
}

/**
 * Scenario 1: turn i (1..k) starts slow job i with a fast echo beside it (so the turn has real
 * output and the model goes on at once), then collects.
 */
export function jobsResponder(k: number, seconds: number): Responder {
  return (request) => {
    const started = toolMessages(request).filter((r) => r.toolName === SLOW);
    if (started.length < k) {
      const i = started.length + 1;
      return calls(slowCall(seconds, jobText(i)), echoCall(`step ${i}`));
    }
    return collect(request, started);
  };
}

/**
 * Scenario 1b, the competent way to run K independent jobs: all K slow jobs in one turn (they
 * run together, up to toolConcurrency at once), then collect.
 */
export function batchResponder(k: number, seconds: number): Responder {
  return (request) => {
    const started = toolMessages(request).filter((r) => r.toolName === SLOW);
    if (started.length === 0)
      return calls(...Array.from({ length: k }, (_, i) => slowCall(seconds, jobText(i + 1))));
    return collect(request, started);
  };
}

/** Whether the request declares `agent__helper` with an `async` parameter (async tools on). */
function helperTakesAsync(request: ChatRequest): boolean {
  const tool = (request.tools ?? []).find((t) => t.function.name === HELPER);
  const properties = (tool?.function.parameters as { properties?: Record<string, unknown> })
    ?.properties;
  return properties !== undefined && "async" in properties;
}

function isHelperRequest(request: ChatRequest): boolean {
  return JSON.stringify(request.messages[0]?.content ?? "").includes(HELPER_PROMPT);
}

/**
 * Scenario 2: the parent starts helper "left" in turn 1 and helper "right" in turn 2
 * (`async: true` when the schema offers it; with `echo`, a fast echo beside each), then
 * collects. Each helper runs one slow job with its task's text, then collects.
 */
export function pairResponder(seconds: number, echo: boolean): Responder {
  return (request) => {
    const results = toolMessages(request);
    if (isHelperRequest(request)) {
      const started = results.filter((r) => r.toolName === SLOW);
      if (started.length > 0) return collect(request, started);
      const task = textOf(request.messages.find((m) => m.role === "user")!);
      return calls(slowCall(seconds, helperText(task.trim())));
    }
    const started = results.filter((r) => r.toolName === HELPER);
    if (started.length < 2) {
      const task = started.length === 0 ? "left" : "right";
      const helper: ScriptedToolCall = {
        name: HELPER,
        arguments: { task, ...(helperTakesAsync(request) ? { async: true } : {}) },
      };
      return echo ? calls(helper, echoCall(`started ${task}`)) : calls(helper);
    }
    return collect(request, started);
  };
}
