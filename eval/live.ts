/**
 * `npm run eval:live`: a real model as the agent (SPILLWAY_LIVE_MODEL, e.g. openai/gpt-4.1 with
 * OPENAI_API_KEY, or ollama/qwen2.5:7b with Ollama running). For each variant of what the model
 * is shown in place of a large output, how often it retrieves before answering, how often it is
 * right, and how often it states an answer it was never shown. Without a model it says so and
 * exits 0.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { AgentEvent } from "../src/agent/events.js";
import { runAgent } from "../src/agent/run-agent.js";
import type { CliSettings } from "../src/config/index.js";
import { startSpillwayEnv } from "./spillway-env.js";
import { ANSWER_PATTERN, generateWorkload, type Task } from "./workload.js";

const MODEL = process.env.SPILLWAY_LIVE_MODEL;

/** What the model is shown in place of a large output. */
const VARIANTS: Record<string, { readonly description: string; readonly settings: CliSettings }> = {
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

interface LiveResult {
  readonly variant: string;
  readonly task: string;
  readonly retrievedFirst: boolean;
  readonly correct: boolean;
  /** The report names an `ANS-…` value that no tool result showed. */
  readonly invented: boolean;
  readonly status: string;
}

async function main(): Promise<void> {
  if (!MODEL) {
    process.stdout.write(
      "eval:live skipped: SPILLWAY_LIVE_MODEL is not set. Set it to a model ref (e.g. openai/gpt-4.1 with OPENAI_API_KEY, " +
        "or ollama/qwen2.5:7b with Ollama running) to measure how often a real model retrieves before answering.\n",
    );
    return;
  }
  const env = await startSpillwayEnv(() => ({ text: "unused: the live model answers" }));
  const tasks: { task: Task; id: string; text: string }[] = [];
  for (const kind of ["log", "json-pretty"] as const) {
    const workload = generateWorkload(kind, "500KB", 11);
    env.outputs.set(workload.id, workload.text);
    for (const task of workload.tasks.filter((t) =>
      ["middle", "75%", "nested-json", "end-error"].includes(t.position),
    ))
      tasks.push({ task, id: workload.id, text: workload.text });
  }
  const results: LiveResult[] = [];
  try {
    for (const [variant, { settings }] of Object.entries(VARIANTS)) {
      for (const { task, id } of tasks) {
        const events: AgentEvent[] = [];
        const result = await runAgent({
          agent: env.agentPath,
          prompt: `Call data__fetch with output="${id}". ${task.question} Answer with the exact value.`,
          model: MODEL,
          settings,
          stores: env.stores,
          cwd: env.dir,
          onEvent: (event) => events.push(event),
        });
        const top = events.filter((e) => e.sessionId === result.sessionId);
        const calls = top.flatMap((e) => (e.type === "tool.end" ? [e.toolName] : []));
        const shown = (await env.stores.history.messages(result.sessionId))
          .flatMap((m) => m.parts)
          .map((part) => JSON.stringify(part))
          .join("\n");
        const report = result.report ?? "";
        const named = report.match(new RegExp(ANSWER_PATTERN, "g")) ?? [];
        results.push({
          variant,
          task: task.id,
          retrievedFirst: calls.some((c) => RETRIEVAL_TOOLS.has(c)),
          correct: report.includes(task.expected),
          invented: named.some((value) => !shown.includes(value) && value !== task.expected),
          status: result.status,
        });
        process.stderr.write(
          `${variant} ${task.id}: ${results.at(-1)!.correct ? "right" : "wrong"} · calls ${calls.join(", ")}\n`,
        );
      }
    }
  } finally {
    await env.close();
  }
  const out = resolve(import.meta.dirname, "report-live");
  await mkdir(out, { recursive: true });
  const rate = (list: LiveResult[], key: "retrievedFirst" | "correct" | "invented") =>
    `${list.filter((r) => r[key]).length}/${list.length}`;
  const rows = Object.entries(VARIANTS).map(([variant, { description }]) => {
    const list = results.filter((r) => r.variant === variant);
    return `| ${variant} | ${description} | ${rate(list, "retrievedFirst")} | ${rate(list, "correct")} | ${rate(list, "invented")} |`;
  });
  await writeFile(
    join(out, "README.md"),
    [
      `# Live evaluation: ${MODEL}`,
      "",
      "A real model as the agent on 500 KB outputs (needles in the middle, at 75%, in a nested JSON field, at the end of a log).",
      "",
      "| variant | what the model is shown | retrieved before answering | right | stated a value never shown |",
      "| --- | --- | --- | --- | --- |",
      ...rows,
      "",
    ].join("\n"),
  );
  process.stdout.write(`${rows.join("\n")}\n`);
  process.stdout.write(`${JSON.stringify({ evalLive: MODEL, results })}\n`);
}

await main();
