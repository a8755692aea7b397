import { mkdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { projectedResultText, viewerRenderContext } from "../../src/agent/projected-result.js";
import { runAgent } from "../../src/agent/run-agent.js";
import { storedPlan } from "../../src/agent/run-settings.js";
import { isSpillwayError } from "../../src/core/errors.js";
import { DEFAULT_LOCAL_MODEL } from "../../src/providers/local/catalog.js";
import { localToolCallSources } from "../../src/providers/local/local-language-model.js";
import { resolveModelFile } from "../../src/providers/local/model-files.js";
import { openSqliteStores } from "../../src/store/sqlite-history-store.js";
import { SCENARIOS, type Scenario } from "./scenarios.js";

/**
 * `npm run test:live`: the scenarios of scenarios.ts against a REAL model, by default the
 * local test model (`npm run model:fetch` assembles it). SPILLWAY_LIVE_MODEL picks another
 * (any model ref); SPILLWAY_LIVE_SEEDS the seeds (default 1,2,3); SPILLWAY_LIVE_GATE_ONLY=1
 * runs only the gating scenarios (what CI runs). Gating scenarios must pass on every seed;
 * the others print their pass rate and never fail the run.
 */

/**
 * Scenarios the local test model passed on every seed measured with the code of the day (seeds 1
 * and 2, two threads; docs/local-models.md); CI runs them on those seeds and they must pass.
 * Others passed before the handle message and the notice changed and are measured again before
 * they gate.
 */
export const GATING = new Set<string>(["get_tool_output grep"]);

function defaultModel(): { ref?: string; skip?: string } {
  if (process.env.SPILLWAY_LIVE_MODEL) return { ref: process.env.SPILLWAY_LIVE_MODEL };
  try {
    resolveModelFile(DEFAULT_LOCAL_MODEL);
    return { ref: `local/${DEFAULT_LOCAL_MODEL}` };
  } catch (error) {
    if (!isSpillwayError(error, "MODEL_FILE_NOT_FOUND")) throw error;
    return {
      skip:
        `the local test model ${DEFAULT_LOCAL_MODEL} is not on this machine: run \`npm run model:fetch\` ` +
        "(or set SPILLWAY_LIVE_MODEL to another model ref)",
    };
  }
}

const MODEL = defaultModel();
const SEEDS = (process.env.SPILLWAY_LIVE_SEEDS ?? "1,2,3").split(",").map(Number);
const ONLY = process.env.SPILLWAY_LIVE_SCENARIOS?.split(",").map((s) => s.trim());
const selected = SCENARIOS.filter(
  (s) =>
    (process.env.SPILLWAY_LIVE_GATE_ONLY !== "1" || GATING.has(s.id)) &&
    (!ONLY || ONLY.some((part) => s.id.includes(part))),
);
if (MODEL.skip) console.log(`test:live skipped: ${MODEL.skip}`);
if (process.env.SPILLWAY_LIVE_GATE_ONLY === "1" && GATING.size === 0) {
  console.log(
    "test:live: no scenario gates yet: the local test model has not passed any on every seed measured (docs/local-models.md)",
  );
}

const here = fileURLToPath(new URL(".", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
function serverSpec(args: readonly (string | number | undefined)[]) {
  return {
    command: process.execPath,
    args: [
      "--import",
      tsx,
      join(here, "live-mcp-server.ts"),
      ...args.filter((a) => a !== undefined).map(String),
    ],
  };
}

function frontmatter(values: Record<string, unknown>): string {
  return `---\n${Object.entries(values)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join("\n")}\n---\n`;
}

const BODY =
  "You answer questions about tool outputs. Call the tool you are told to call. When its output is stored, read it with the retrieval tool you are told to use, and report only what that read returned.\n";

interface Outcome {
  readonly scenario: string;
  readonly seed: number;
  readonly pass: boolean;
  readonly inReport: boolean;
  readonly shown: boolean;
  readonly retrieved: boolean;
  readonly turns: number;
  readonly seconds: number;
  readonly status: string;
  readonly report: string;
  readonly calls: string;
  readonly home: string;
}

const outcomes: Outcome[] = [];

/**
 * Every tool result of the sessions, with its tool, as the model was shown it: rendered as
 * `spillway sessions show` renders them, with the session's task, so a handle message holds the
 * lines its search for the task showed.
 */
async function shownTexts(home: string, sessionIds: string[]) {
  const stores = await openSqliteStores({ home });
  try {
    const texts: { toolName: string; text: string }[] = [];
    for (const sessionId of sessionIds) {
      const session = await stores.history.getSession(sessionId);
      const context = viewerRenderContext(
        stores.outputs,
        session,
        storedPlan(session.settings, sessionId),
      );
      for (const message of await stores.history.messages(sessionId)) {
        for (const part of message.parts) {
          if (part.type !== "tool-result") continue;
          texts.push({
            toolName: part.toolName,
            text: await projectedResultText(context, part.result),
          });
        }
      }
    }
    return texts;
  } finally {
    await stores.close();
  }
}

/** Each run's files stay in .test-report/live/<scenario>-<seed> for `spillway --home … sessions show`. */
async function runDir(scenario: Scenario, seed: number): Promise<string> {
  const dir = join(
    process.cwd(),
    ".test-report",
    "live",
    `${scenario.id.replace(/[^a-z0-9]+/gi, "-")}-seed${seed}`,
  );
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  return dir;
}

/** The calls a session made, in order, for the log line of a failed run. */
async function callsOf(home: string, sessionId: string): Promise<string> {
  const stores = await openSqliteStores({ home });
  try {
    const calls = await stores.history.toolCalls(sessionId);
    return calls.map((c) => `${c.toolName}${c.argsText.slice(0, 120)}`).join(" → ");
  } finally {
    await stores.close();
  }
}

async function play(scenario: Scenario, seed: number, model: string): Promise<Outcome> {
  const dir = await runDir(scenario, seed);
  const home = join(dir, "home");
  await mkdir(home, { recursive: true });
  const base = {
    models: [model],
    maxTurns: 6,
    toolResponseMaxBytes: 1500,
    contextWindow: 8192,
    ...(scenario.frontmatter ?? {}),
  };
  const agent = join(dir, "agent.md");
  if (scenario.subagent) {
    const sub = scenario.subagent;
    await writeFile(
      join(dir, `${sub.name}.md`),
      `${frontmatter({
        description: "Looks up the current deploy key in the vault",
        models: [model],
        maxTurns: 3,
        contextWindow: 8192,
        mcpServers: { live: serverSpec([sub.server[0], seed, sub.server[1]]) },
      })}Call live__vault_lookup once and report exactly what it returns.\n`,
    );
    await writeFile(
      agent,
      `${frontmatter({ ...base, agents: [join(dir, `${sub.name}.md`)] })}${BODY}`,
    );
  } else {
    const [tool, size, at, shape] = scenario.server;
    await writeFile(
      agent,
      `${frontmatter({ ...base, mcpServers: { live: serverSpec([tool, seed, size, at ?? 0.5, shape]) } })}${BODY}`,
    );
  }
  const started = performance.now();
  const sessions: string[] = [];
  const result = await runAgent({
    agent,
    prompt: scenario.prompt(seed),
    home,
    cwd: dir,
    onEvent: (event) => {
      if (event.type === "session.start") sessions.push(event.sessionId);
    },
  });
  const answer = scenario.answer(seed);
  const results = await shownTexts(home, sessions);
  const retrieved = results.some(
    ({ toolName, text }) =>
      scenario.retrieval.includes(toolName) &&
      text.includes(answer) &&
      (!scenario.mustShow || text.includes(scenario.mustShow)),
  );
  const shown = results.some(({ text }) => text.includes(answer));
  const inReport = (result.report ?? "").includes(answer);
  const calls = await callsOf(home, result.sessionId);
  return {
    calls,
    home,
    scenario: scenario.id,
    seed,
    pass: inReport && (scenario.mustShow ? retrieved : shown),
    inReport,
    shown,
    retrieved,
    turns: result.turns,
    seconds: Math.round((performance.now() - started) / 1000),
    status: result.status,
    report: (result.report ?? result.error ?? "").slice(0, 160).replace(/\s+/g, " "),
  };
}

describe.skipIf(MODEL.ref === undefined)(`live scenarios with ${MODEL.ref ?? "no model"}`, () => {
  afterAll(async () => {
    if (outcomes.length === 0) return;
    const lines = [`live scenarios, model ${MODEL.ref}, seeds ${SEEDS.join(",")}:`];
    for (const scenario of selected) {
      const mine = outcomes.filter((o) => o.scenario === scenario.id);
      if (mine.length === 0) continue;
      const passed = mine.filter((o) => o.pass).length;
      const seconds = mine.reduce((sum, o) => sum + o.seconds, 0);
      lines.push(
        `  ${GATING.has(scenario.id) ? "GATE" : "    "} ${scenario.id.padEnd(42)} ${passed}/${mine.length} passed · ${seconds} s`,
      );
    }
    const total = outcomes.reduce((sum, o) => sum + o.seconds, 0);
    const sources = localToolCallSources();
    lines.push(`  total ${total} s of model runs`);
    lines.push(
      `  replies offered tools (local models): ${sources.forced} calls started by the provider (a call was required), ${sources.native} native tool calls, ${sources.recovered} calls written as JSON text and recovered, ${sources.none} without a call`,
    );
    console.log(lines.join("\n"));
    await mkdir(".test-report", { recursive: true });
    await writeFile(
      join(".test-report", "live.json"),
      `${JSON.stringify({ model: MODEL.ref, seeds: SEEDS, outcomes }, null, 2)}\n`,
    );
  });

  for (const scenario of selected) {
    it(`${GATING.has(scenario.id) ? "[gate] " : ""}${scenario.id}`, async () => {
      const mine: Outcome[] = [];
      for (const seed of SEEDS) {
        const outcome = await play(scenario, seed, MODEL.ref!);
        outcomes.push(outcome);
        mine.push(outcome);
        console.log(
          `[live] ${scenario.id} seed ${seed}: ${outcome.pass ? "PASS" : "fail"} (report has answer: ${outcome.inReport}, a tool result showed it: ${outcome.shown}, a retrieval call returned it: ${outcome.retrieved}; ${outcome.status}, ${outcome.turns} turns, ${outcome.seconds} s) report ${JSON.stringify(outcome.report)}; calls: ${outcome.calls || "none"}; home ${outcome.home}`,
        );
      }
      if (GATING.has(scenario.id)) {
        expect(
          mine.filter((o) => !o.pass).map((o) => `seed ${o.seed}: ${o.report}`),
          `${scenario.id} gates CI and must pass on every seed`,
        ).toEqual([]);
      }
    });
  }
});
