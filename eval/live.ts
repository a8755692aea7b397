/**
 * `npm run eval:live`: a real model as the agent (SPILLWAY_LIVE_MODEL, e.g. openai/gpt-4.1 with
 * OPENAI_API_KEY, or ollama/qwen2.5:7b with Ollama running). For each variant of what the model
 * is shown in place of a large output, how often it retrieves before answering, how often it is
 * right, and how often it states an answer it was never shown. Without a model it says so and
 * exits 0.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { AgentEvent } from "../src/agent/events.js";
import { runAgent } from "../src/agent/run-agent.js";
import { storedPlan } from "../src/agent/run-settings.js";
import { historyLines } from "../src/cli/session-render.js";
import type { CliSettings } from "../src/config/index.js";
import type { SpillwayStores } from "../src/store/sqlite-history-store.js";
import type { Responder } from "../src/testing/index.js";
import { startSpillwayEnv } from "./spillway-env.js";
import { ANSWER_PATTERN, generateWorkload, type Task } from "./workload.js";

/** What the model is shown in place of a large output. */
export const VARIANTS: Record<
  string,
  { readonly description: string; readonly settings: CliSettings }
> = {
  ready: {
    description: "seed 003's ready text (async on, the default over 10,000 tokens)",
    settings: {},
  },
  handle: {
    description: "spillway's handle message with synopsis and exact calls (async off)",
    settings: { async: false },
  },
  "tool-output": {
    description: "seed 000's tool_output handle message (extraction only)",
    settings: { toolOutput: { surface: "tool_output" } },
  },
};

const RETRIEVAL_TOOLS = new Set(["get_tool_output", "tool_output", "wait_for_tool_output"]);

export interface LiveResult {
  readonly variant: string;
  readonly task: string;
  /** The model called a retrieval tool before its final report. */
  readonly retrievedFirst: boolean;
  readonly correct: boolean;
  /** The report names an `ANS-…` value that no tool result showed the model. */
  readonly invented: boolean;
  /** The session's end: completed, or failed/aborted (counted, never scored as right). */
  readonly status: string;
}

export interface LiveEvalOptions {
  /** The model ref playing the agent, as `spillway run --model` takes it. */
  readonly model: string;
  /** Where README.md goes. */
  readonly out: string;
  /** The variants to play (default: all of VARIANTS). */
  readonly variants?: readonly string[];
  /**
   * For tests of this harness only: the scripted model server plays the agent (`model` must
   * then be the eval env's model ref), and the report says so. Without it, the model is looked
   * up from the current directory's spillway config, then $SPILLWAY_HOME, as `spillway run`
   * does.
   */
  readonly scriptedStandIn?: Responder;
  readonly log?: (line: string) => void;
}

/**
 * Every tool result of a session as the model was shown it (the projection, rendered again from
 * the canonical history): the evidence an answer must come from.
 */
async function shownToModel(stores: SpillwayStores, sessionId: string): Promise<string> {
  const session = await stores.history.getSession(sessionId);
  const toolMessages = (await stores.history.messages(sessionId)).filter((m) => m.role === "tool");
  const view = {
    stores,
    session,
    plan: storedPlan(session.settings, sessionId),
    toolCalls: await stores.history.toolCalls(sessionId),
    children: new Map(),
    full: true,
  };
  return (await historyLines(view, toolMessages)).join("\n");
}

/**
 * Plays the live subset with `model` as the agent and writes `out/README.md`: per variant, how
 * often the model retrieved before answering, was right, and stated a value it was never shown.
 *
 * @example
 * const { results } = await runLiveEval({ model: "openai/gpt-4.1", out: "eval/report-live" });
 */
export async function runLiveEval(
  options: LiveEvalOptions,
): Promise<{ results: LiveResult[]; reportPath: string }> {
  const { model, scriptedStandIn } = options;
  const variants = options.variants ?? Object.keys(VARIANTS);
  for (const variant of variants)
    if (!VARIANTS[variant])
      throw new Error(`unknown variant ${variant}; valid: ${Object.keys(VARIANTS).join(", ")}`);
  const env = await startSpillwayEnv(
    scriptedStandIn ?? (() => ({ text: "unused: the live model answers" })),
  );
  const tasks = liveTasks();
  for (const { id, text } of tasks) env.outputs.set(id, text);
  const results: LiveResult[] = [];
  try {
    for (const variant of variants) {
      const { settings } = VARIANTS[variant]!;
      for (const { task, id } of tasks) {
        const events: AgentEvent[] = [];
        const result = await runAgent({
          agent: env.agentPath,
          prompt: livePrompt(task, id),
          model,
          settings,
          stores: env.stores,
          cwd: scriptedStandIn ? env.dir : process.cwd(),
          onEvent: (event) => events.push(event),
        });
        // No model, no measurement: stop at once rather than score 18 failed sessions as 0/6.
        if (result.status === "failed" && result.error?.startsWith("MODEL_UNAVAILABLE"))
          throw new Error(`eval:live: the model ${model} did not answer. ${result.error}`);
        const calls = events.flatMap((e) =>
          e.type === "tool.end" && e.sessionId === result.sessionId ? [e.toolName] : [],
        );
        const shown = await shownToModel(env.stores, result.sessionId);
        const report = result.report ?? "";
        const named = report.match(new RegExp(ANSWER_PATTERN, "g")) ?? [];
        results.push({
          variant,
          task: task.id,
          retrievedFirst: calls.some((c) => RETRIEVAL_TOOLS.has(c)),
          correct: report.includes(task.expected),
          invented: named.some((value) => !shown.includes(value)),
          status: result.status,
        });
        options.log?.(
          `${variant} ${task.id}: ${results.at(-1)!.correct ? "right" : "wrong"} · calls ${calls.join(", ") || "none"}`,
        );
      }
    }
  } finally {
    await env.close();
  }
  const reportPath = join(options.out, "README.md");
  await mkdir(options.out, { recursive: true });
  await writeFile(reportPath, liveReport(model, variants, results, scriptedStandIn !== undefined));
  return { results, reportPath };
}

/** The live subset: 500 KB log and JSON, needles in the middle, at 75%, nested, at the end. */
export function liveTasks(): { task: Task; id: string; text: string }[] {
  return (["log", "json-pretty"] as const).flatMap((kind) => {
    const workload = generateWorkload(kind, "500KB", 11);
    return workload.tasks
      .filter((t) => ["middle", "75%", "nested-json", "end-error"].includes(t.position))
      .map((task) => ({ task, id: workload.id, text: workload.text }));
  });
}

/** The prompt of a live task: fetch the output, answer the question with the exact value. */
export function livePrompt(task: Task, outputId: string): string {
  return `Call data__fetch with output="${outputId}". ${task.question} Answer with the exact value.`;
}

function liveReport(
  model: string,
  variants: readonly string[],
  results: readonly LiveResult[],
  scripted: boolean,
): string {
  const rate = (list: LiveResult[], key: "retrievedFirst" | "correct" | "invented") =>
    `${list.filter((r) => r[key]).length}/${list.length}`;
  const rows = variants.map((variant) => {
    const list = results.filter((r) => r.variant === variant);
    const ended = list.filter((r) => r.status !== "completed").length;
    return `| ${variant} | ${VARIANTS[variant]!.description} | ${rate(list, "retrievedFirst")} | ${rate(list, "correct")} | ${rate(list, "invented")} | ${ended}/${list.length} |`;
  });
  return [
    `# Live evaluation: ${model}`,
    "",
    ...(scripted
      ? [
          "**Scripted stand-in, not a real model**: this report tests the harness; run `npm run eval:live` with SPILLWAY_LIVE_MODEL for a real one.",
          "",
        ]
      : []),
    "The model as the agent on 500 KB outputs (needles in the middle, at 75%, in a nested JSON field, at the end of a log).",
    "",
    "| variant | what the model is shown | retrieved before answering | right | stated a value never shown | sessions that did not complete |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  const model = process.env.SPILLWAY_LIVE_MODEL;
  if (!model) {
    process.stdout.write(
      "eval:live skipped: SPILLWAY_LIVE_MODEL is not set. Set it to a model ref (e.g. openai/gpt-4.1 with OPENAI_API_KEY, " +
        "or ollama/qwen2.5:7b with Ollama running) to measure how often a real model retrieves before answering.\n",
    );
    return;
  }
  const { results, reportPath } = await runLiveEval({
    model,
    out: resolve(import.meta.dirname, "report-live"),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${await readFile(reportPath, "utf8")}`);
  process.stdout.write(`${JSON.stringify({ evalLive: model, results })}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
