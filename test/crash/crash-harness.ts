/**
 * The crash harness: SIGKILL a writer at seeded random moments, then check the store.
 *
 * Ingest rounds kill a process storing outputs of up to tens of MB (test/fixtures/crash-writer.ts);
 * session rounds kill `runAgent` (test/fixtures/run-agent-child.ts) while a scripted model has a
 * real MCP test server produce large outputs, then resume the session in this process. After
 * every kill: each output the writer reported committed is there and verifies (SHA-256), every
 * ready record verifies (no partial record is visible), every tool call's output exists; a
 * session resumes to completion. At the end `store gc` leaves no temp file behind.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runAgent } from "../../src/agent/run-agent.js";
import { Rng } from "../../src/core/rng.js";
import { openSqliteStores } from "../../src/store/sqlite-history-store.js";
import { collectGarbage } from "../../src/store/store-maintenance.js";
import {
  findOutputIds,
  type Responder,
  startScriptedModelServer,
  testMcpServerCommand,
  toolCall,
  toolMessages,
} from "../../src/testing/index.js";

export interface CrashSummary {
  ingestKills: number;
  sessionKills: number;
  /** Outputs a killed writer had reported committed, each found and verified afterwards. */
  committedChecked: number;
  /** Ready records verified after kills (all of them, every round). */
  readyVerified: number;
  /** Committed outputs missing or failing verification: must be 0. */
  lost: number;
  /** Ready records whose bytes did not verify, or tool calls pointing at no output: must be 0. */
  partial: number;
  resumed: number;
  resumeFailures: number;
  /** Temp files left by kills, before and after `store gc`. */
  tempFilesBeforeGc: number;
  tempFilesAfterGc: number;
  problems: string[];
}

const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const FIXTURES = join(import.meta.dirname, "../fixtures");

function start(
  script: string,
  args: string[],
  cwd?: string,
): { child: ChildProcess; lines: string[] } {
  const child = spawn(process.execPath, ["--import", TSX, join(FIXTURES, script), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    ...(cwd ? { cwd } : {}),
  });
  const lines: string[] = [];
  let pending = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const parts = pending.split("\n");
    pending = parts.pop()!;
    lines.push(...parts.filter((line) => line.length > 0));
  });
  child.stderr!.resume();
  return { child, lines };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

/** Every ready output verifies, every tool call's output exists. */
async function checkStore(
  home: string,
  summary: CrashSummary,
  round: string,
): Promise<Set<string>> {
  const stores = await openSqliteStores({ home });
  const ready = new Set<string>();
  try {
    const all = { allSessions: true } as const;
    for (const record of await stores.outputs.list({ limit: 100_000 })) {
      if (record.status !== "ready") continue;
      const verified = await stores.outputs.verify(record.id, all);
      if (!verified.ok) {
        summary.partial++;
        summary.problems.push(`${round}: ${record.id} does not verify`);
      }
      summary.readyVerified++;
      ready.add(record.id);
    }
    for (const session of await stores.history.listSessions({
      limit: 10_000,
      parentSessionId: null,
    })) {
      for (const call of await stores.history.toolCalls(session.id)) {
        if (call.outputId === null) continue;
        const found = await stores.outputs.get(call.outputId, all).catch(() => undefined);
        if (!found) {
          summary.partial++;
          summary.problems.push(
            `${round}: tool call ${call.toolCallId} points at missing ${call.outputId}`,
          );
        }
      }
    }
  } finally {
    await stores.close();
  }
  return ready;
}

async function ingestRound(
  home: string,
  rng: Rng,
  round: number,
  maxMb: number,
  summary: CrashSummary,
) {
  const { child, lines } = start("crash-writer.ts", [home, String(1000 + round), String(maxMb)]);
  // Once it is writing, kill it at a random moment (most often mid-write of a large output).
  const deadline = Date.now() + 60_000;
  while (lines.length === 0 && Date.now() < deadline && child.exitCode === null) await sleep(20);
  await sleep(rng.int(3000));
  await kill(child);
  summary.ingestKills++;
  await checkStore(home, summary, `ingest ${round}`);
  const stores = await openSqliteStores({ home });
  try {
    for (const line of lines.filter((text) => text !== "ready")) {
      const [id, sha256, bytes] = line.split(" ");
      summary.committedChecked++;
      const record = await stores.outputs.get(id!, { allSessions: true }).catch(() => undefined);
      const verified = record ? await stores.outputs.verify(id!, { allSessions: true }) : undefined;
      if (
        !record ||
        record.sha256 !== sha256 ||
        record.byteSize !== Number(bytes) ||
        !verified?.ok
      ) {
        summary.lost++;
        summary.problems.push(`ingest ${round}: committed ${id} lost or changed`);
      }
    }
  } finally {
    await stores.close();
  }
}

/**
 * The scripted model: six large tool results (sizes scaled to `maxMb`), then a report naming
 * them. It decides from the number of results it was shown, nothing else.
 */
function policy(maxMb: number): Responder {
  const sizes = [0.15, 0.6, 0.01, 1, 0.25, 0.05].map((f) => Math.round(f * maxMb * 1_000_000));
  return (request) => {
    const results = toolMessages(request);
    if (results.length < sizes.length) {
      return toolCall("test__generate_output", {
        bytes: sizes[results.length],
        kind: "log",
        seed: results.length,
      });
    }
    const ids = results.flatMap((result) => findOutputIds(result.text));
    return toolCall("agent__final_report", {
      report: `stored ${ids.length} handles: ${ids.join(" ")}`,
    });
  };
}

async function sessionRound(
  dir: string,
  home: string,
  agent: string,
  rng: Rng,
  round: number,
  summary: CrashSummary,
  killWithinMs: number,
) {
  const { child, lines } = start("run-agent-child.ts", [home, agent, `task ${round}`], dir);
  const deadline = Date.now() + 60_000;
  while (lines.length === 0 && Date.now() < deadline && child.exitCode === null) await sleep(20);
  await sleep(rng.int(killWithinMs));
  await kill(child);
  summary.sessionKills++;
  const sessionId = lines[0];
  const before = await checkStore(home, summary, `session ${round}`);
  if (!sessionId) return;
  const stores = await openSqliteStores({ home });
  try {
    const result = await runAgent({ resume: sessionId, stores, cwd: dir });
    if (result.status !== "completed") {
      summary.resumeFailures++;
      summary.problems.push(
        `session ${round}: resume ended ${result.status}: ${result.error ?? ""}`,
      );
    } else {
      summary.resumed++;
    }
  } finally {
    await stores.close();
  }
  const after = await checkStore(home, summary, `session ${round} resumed`);
  for (const id of before) {
    if (!after.has(id)) {
      summary.lost++;
      summary.problems.push(`session ${round}: ${id} was ready before the resume and is gone`);
    }
  }
}

/**
 * Runs `ingestRounds` ingest kills and `sessionRounds` session kills, seeded.
 *
 * @example
 * const summary = await runCrashes({ ingestRounds: 50, sessionRounds: 50, seed: 1 });
 */
export async function runCrashes(options: {
  ingestRounds: number;
  sessionRounds: number;
  seed: number;
  /** Largest output in MB (the writer's, and the session's largest tool result). */
  maxMb?: number;
  /** A session is killed within this many ms of starting. */
  killWithinMs?: number;
  log?: (line: string) => void;
}): Promise<CrashSummary> {
  const rng = new Rng(options.seed);
  const summary: CrashSummary = {
    ingestKills: 0,
    sessionKills: 0,
    committedChecked: 0,
    readyVerified: 0,
    lost: 0,
    partial: 0,
    resumed: 0,
    resumeFailures: 0,
    tempFilesBeforeGc: 0,
    tempFilesAfterGc: 0,
    problems: [],
  };
  const dir = await mkdtemp(join(tmpdir(), "spillway-crash-"));
  const home = join(dir, "home");
  const server = await startScriptedModelServer({ respond: policy(options.maxMb ?? 20) });
  try {
    await writeFile(
      join(dir, "spillway.config.json"),
      JSON.stringify({
        providers: { "openai-compatible": { scripted: { baseURL: server.baseURL } } },
      }),
    );
    const mcp = testMcpServerCommand();
    const agent = join(dir, "crash.md");
    await writeFile(
      agent,
      `---\nmodels: ["openai-compatible/scripted/scripted-policy"]\nmcpServers:\n  test:\n    command: ${JSON.stringify(mcp.command)}\n    args: ${JSON.stringify(mcp.args)}\n---\nStore what the tools return.\n`,
    );
    for (let round = 0; round < Math.max(options.ingestRounds, options.sessionRounds); round++) {
      if (round < options.ingestRounds)
        await ingestRound(home, rng, round, options.maxMb ?? 20, summary);
      if (round < options.sessionRounds)
        await sessionRound(dir, home, agent, rng, round, summary, options.killWithinMs ?? 6000);
      options.log?.(
        `round ${round + 1}: ${summary.ingestKills + summary.sessionKills} kills, ${summary.committedChecked} committed checked, lost ${summary.lost}, partial ${summary.partial}, resumed ${summary.resumed}`,
      );
    }
    summary.tempFilesBeforeGc = (await readdir(join(home, "tmp")).catch(() => [])).length;
    await collectGarbage({ home, graceMs: 0 });
    summary.tempFilesAfterGc = (await readdir(join(home, "tmp")).catch(() => [])).length;
    await checkStore(home, summary, "after gc");
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
  return summary;
}
