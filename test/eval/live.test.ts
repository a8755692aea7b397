/**
 * The live harness (`npm run eval:live`) measured against scripted stand-ins whose behaviour we
 * know: one that retrieves and answers from what it read, one that answers without reading.
 * The real measurement needs a real model (SPILLWAY_LIVE_MODEL); this checks that the harness
 * counts retrievals, right answers and invented values correctly.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { livePrompt, liveTasks, runLiveEval } from "../../eval/live.js";
import { EVAL_MODEL } from "../../eval/spillway-env.js";
import { ANSWER_PATTERN, answerFrom } from "../../eval/workload.js";
import {
  type ChatRequest,
  findOutputIds,
  type Responder,
  textOf,
  toolCall,
  toolMessages,
} from "../../src/testing/index.js";
import { tempDir } from "../helpers/temp-store.js";

const tasks = liveTasks();

function taskOf(request: ChatRequest) {
  const user = request.messages.find((m) => m.role === "user");
  const prompt = user ? textOf(user) : "";
  const entry = tasks.find(({ task, id }) => prompt.includes(livePrompt(task, id)));
  if (!entry) throw new Error(`no live task in the prompt: ${prompt.slice(0, 200)}`);
  return entry;
}

/** Fetches, greps the stored output for the question's cue, answers from the grep result. */
function retriever(found: Set<string>): Responder {
  return (request) => {
    const { task, id } = taskOf(request);
    const results = toolMessages(request);
    if (results.length === 0) return toolCall("data__fetch", { output: id });
    const handle = findOutputIds(results[0]!.text)[0];
    if (results.length === 1 && handle)
      return toolCall("get_tool_output", {
        id: handle,
        mode: "grep",
        pattern: task.search.literal ?? task.search.regex,
        ...(task.search.literal ? {} : { regex: true }),
        context: task.position === "end-error" ? 3 : task.kind === "json-pretty" ? 20 : 1,
      });
    const answer = answerFrom(task, results.at(-1)!.text);
    if (answer) found.add(`${task.id}`);
    return toolCall("agent__final_report", { report: answer ?? "I could not find it." });
  };
}

/** Fetches, then states a value without reading anything. */
const inventor: Responder = (request) => {
  const { id } = taskOf(request);
  if (toolMessages(request).length === 0) return toolCall("data__fetch", { output: id });
  return toolCall("agent__final_report", { report: "The value is ANS-ZZZZZZ." });
};

describe("eval:live harness", () => {
  it("counts retrievals and right answers, and no invention, for a model that reads", async () => {
    const out = await tempDir("spillway-eval-live-");
    const found = new Set<string>();
    const { results, reportPath } = await runLiveEval({
      model: EVAL_MODEL,
      out,
      variants: ["ready", "handle"],
      scriptedStandIn: retriever(found),
    });
    expect(results).toHaveLength(tasks.length * 2);
    expect(results.every((r) => r.status === "completed" && r.retrievedFirst)).toBe(true);
    expect(results.filter((r) => r.invented)).toEqual([]);
    // Right exactly where the grep showed the answer; the log's needles always are.
    expect(results.filter((r) => r.correct).map((r) => r.task)).toEqual(
      results.filter((r) => found.has(r.task)).map((r) => r.task),
    );
    expect(results.filter((r) => r.correct).length).toBeGreaterThanOrEqual(8);
    const report = await readFile(reportPath, "utf8");
    expect(report).toContain("**Scripted stand-in, not a real model**");
    expect(report).toContain(`| ready | seed 003's ready text`);
    const n = tasks.length;
    const right = results.filter((r) => r.variant === "handle" && r.correct).length;
    expect(report).toContain(` | ${n}/${n} | ${right}/${n} | 0/${n} | 0/${n} |`);
  });

  it("flags a value the model was never shown, and no retrieval", async () => {
    const out = await tempDir("spillway-eval-live-");
    const { results } = await runLiveEval({
      model: EVAL_MODEL,
      out,
      variants: ["tool-output"],
      scriptedStandIn: inventor,
    });
    expect(new RegExp(ANSWER_PATTERN).test("ANS-ZZZZZZ")).toBe(true);
    expect(results).toHaveLength(tasks.length);
    expect(results.every((r) => r.invented && !r.correct && !r.retrievedFirst)).toBe(true);
    await expect(
      runLiveEval({ model: EVAL_MODEL, out, variants: ["nope"], scriptedStandIn: inventor }),
    ).rejects.toThrow("unknown variant nope; valid: ready, handle, tool-output");
  });

  it("stops at once, naming the model and its error, when the model does not answer", async () => {
    const out = await tempDir("spillway-eval-live-");
    let requests = 0;
    const down: Responder = () => {
      requests += 1;
      return { error: { status: 503, message: "overloaded", retryAfterMs: 1 } };
    };
    await expect(runLiveEval({ model: EVAL_MODEL, out, scriptedStandIn: down })).rejects.toThrow(
      `eval:live: the model ${EVAL_MODEL} did not answer. MODEL_UNAVAILABLE`,
    );
    // One session's attempts, not eighteen sessions' worth.
    expect(requests).toBeLessThanOrEqual(4);
  });
});
