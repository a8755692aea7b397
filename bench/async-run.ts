/**
 * One measured session of the async-tools benchmark: a fresh directory and store, a scripted
 * OpenAI-compatible model server (in process, over real HTTP), a config file pointing the
 * `scripted` openai-compatible provider at it, agent files using the real test MCP server over
 * stdio, then runAgent timed from call to return. Copied in small from the e2e tests' fixture
 * (test/helpers/agent-fixture.ts), which imports vitest.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAgent } from "../src/agent/run-agent.js";
import type { CliSettings } from "../src/config/index.js";
import { openSqliteStores } from "../src/store/sqlite-history-store.js";
import { type Responder, startScriptedModelServer } from "../src/testing/index.js";
import { testMcpServerCommand } from "../src/testing/mcp-test-server-command.js";
import {
  batchResponder,
  HELPER_PROMPT,
  helperText,
  jobsResponder,
  jobText,
  PARENT_PROMPT,
  pairResponder,
} from "./async-policy.js";

const SCRIPTED_MODEL = "openai-compatible/scripted/scripted-policy";

/** What one scenario runs: the policy, the agents, and the texts its report must hold. */
export interface ScenarioSpec {
  /** A short name for tables and JSON. */
  readonly name: string;
  /** How many slow jobs a session runs (the sync baseline runs them one after another). */
  readonly jobs: number;
  readonly respond: Responder;
  /** The texts the final report must contain (each slow job's text). */
  readonly expected: readonly string[];
  /** With a helper sub-agent (the parent lists it in `agents:`). */
  readonly subagents: boolean;
}

/** K slow jobs started one per turn (the next call comes after the turn's fast result). */
export function jobsScenario(k: number, seconds: number): ScenarioSpec {
  return {
    name: `K=${k}, one per turn`,
    jobs: k,
    respond: jobsResponder(k, seconds),
    expected: Array.from({ length: k }, (_, i) => jobText(i + 1)),
    subagents: false,
  };
}

/** K independent slow jobs started together in one turn, as a competent agent starts them. */
export function batchScenario(k: number, seconds: number): ScenarioSpec {
  return {
    name: `K=${k}, all in one turn`,
    jobs: k,
    respond: batchResponder(k, seconds),
    expected: Array.from({ length: k }, (_, i) => jobText(i + 1)),
    subagents: false,
  };
}

export function pairScenario(seconds: number, echo: boolean): ScenarioSpec {
  return {
    name: echo ? "subagent pair + echo" : "subagent pair",
    jobs: 2,
    respond: pairResponder(seconds, echo),
    expected: [helperText("left"), helperText("right")],
    subagents: true,
  };
}

export type Mode = "sync" | "async";

export interface RunSettings {
  readonly asyncTimeoutSecs: number;
  /** asyncMaxRunning at CLI level; undefined keeps spillway's default. */
  readonly maxRunning: number | undefined;
}

/** One measured session. */
export interface RunMeasure {
  readonly mode: Mode;
  /** runAgent, call to return. */
  readonly wallMs: number;
  /** From the call to the first turn of the top session (config, store, MCP server start). */
  readonly setupMs: number;
  readonly modelCalls: number;
  /** Tool calls that went on in the background (time trigger or async sub-agent). */
  readonly asyncCalls: number;
}

function yamlValue(value: unknown, indent: string): string {
  if (Array.isArray(value)) return value.map((v) => `\n${indent}- ${JSON.stringify(v)}`).join("");
  if (typeof value === "object" && value !== null) {
    return Object.entries(value)
      .map(
        ([k, v]) =>
          `\n${indent}${JSON.stringify(k)}:${typeof v === "object" && v !== null ? yamlValue(v, `${indent}  `) : ` ${JSON.stringify(v)}`}`,
      )
      .join("");
  }
  return ` ${JSON.stringify(value)}`;
}

async function writeAgent(
  dir: string,
  name: string,
  frontmatter: Record<string, unknown>,
  body: string,
): Promise<string> {
  const path = join(dir, `${name}.md`);
  const lines = Object.entries({ models: [SCRIPTED_MODEL], ...frontmatter }).map(
    ([key, value]) => `${key}:${yamlValue(value, "  ")}`,
  );
  await writeFile(path, `---\n${lines.join("\n")}\n---\n${body}\n`);
  return path;
}

function modeSettings(mode: Mode, settings: RunSettings): CliSettings {
  if (mode === "sync") return { async: false };
  return {
    async: true,
    asyncTimeoutSecs: settings.asyncTimeoutSecs,
    ...(settings.maxRunning !== undefined ? { asyncMaxRunning: settings.maxRunning } : {}),
  };
}

/** Runs one session of `spec` in `mode` and checks its report; throws when it is wrong. */
export async function runOnce(
  root: string,
  spec: ScenarioSpec,
  mode: Mode,
  settings: RunSettings,
): Promise<RunMeasure> {
  const dir = await mkdtemp(join(root, "run-"));
  const server = await startScriptedModelServer({ respond: spec.respond });
  const stores = await openSqliteStores({ home: join(dir, "home") });
  try {
    await writeFile(
      join(dir, "spillway.config.json"),
      JSON.stringify({
        providers: { "openai-compatible": { scripted: { baseURL: server.baseURL } } },
      }),
    );
    const { command, args } = testMcpServerCommand();
    const mcpServers = { test: { command, args: [...args] } };
    const helper = spec.subagents
      ? await writeAgent(
          dir,
          "helper",
          { description: "runs one slow job", mcpServers, maxTurns: 10 },
          HELPER_PROMPT,
        )
      : undefined;
    const agent = await writeAgent(
      dir,
      "main",
      { mcpServers, maxTurns: 40, ...(helper ? { agents: [helper] } : {}) },
      helper ? PARENT_PROMPT : "You are a careful agent: run every slow job and report.",
    );
    let firstTurnMs: number | null = null;
    let asyncCalls = 0;
    const started = performance.now();
    const result = await runAgent({
      agent,
      prompt: `Run the ${spec.name} scenario.`,
      stores,
      cwd: dir,
      settings: modeSettings(mode, settings),
      onEvent: (event) => {
        if (event.type === "turn.start" && event.depth === 0 && firstTurnMs === null)
          firstTurnMs = performance.now() - started;
        if (event.type === "tool.async" && event.depth === 0) asyncCalls++;
      },
    });
    const wallMs = performance.now() - started;
    const where = `${spec.name}, ${mode}`;
    if (result.status !== "completed" || result.error !== null)
      throw new Error(`${where}: the session ended ${result.status}: ${result.error}`);
    if (server.failures.length > 0)
      throw new Error(`${where}: the scripted server failed: ${server.failures[0]!.message}`);
    const report = result.report ?? "";
    const missing = spec.expected.filter(
      (text) => !new RegExp(`(^|\\W)${text}(?!\\w)`, "m").test(report),
    );
    if (missing.length > 0)
      throw new Error(
        `${where}: the report misses ${missing.map((t) => JSON.stringify(t)).join(", ")}; it was:\n${report}`,
      );
    if (mode === "sync" && asyncCalls > 0)
      throw new Error(`${where}: ${asyncCalls} call(s) went async with async: false`);
    return {
      mode,
      wallMs,
      setupMs: firstTurnMs ?? wallMs,
      modelCalls: server.requests.length,
      asyncCalls,
    };
  } finally {
    await stores.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A fresh root for one benchmark run's directories. */
export const benchRoot = () => mkdtemp(join(tmpdir(), "spillway-async-bench-"));
