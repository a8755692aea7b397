/**
 * The official MCP conformance suite against `spillway mcp --http` (a subset here, to keep CI
 * fast; `npm run conformance:gateway` runs every scenario). Needs Node 22 for the suite:
 * `npm run setup:node22` (the CI script runs it). Without it the suite is skipped with the
 * reason printed, except in CI (CI set), where that is a failing test.
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  findNode22,
  runConformance,
  startGateway,
  summarize,
} from "../conformance/gateway-conformance.js";
import { ensureBuilt } from "../helpers/built-cli.js";

const SCENARIOS = [
  "server-initialize",
  "tools-call-with-progress",
  "tools-call-sampling",
  "resources-read-binary",
  "dns-rebinding-protection",
];

const node22 = findNode22();
const NO_NODE22 =
  "no Node 22 found for the MCP conformance suite (run `npm run setup:node22`, or set SPILLWAY_NODE22)";
// In CI a suite that cannot run fails the run; elsewhere it is skipped with the reason printed.
const inCi = Boolean(process.env.CI);
if (!node22 && !inCi) console.warn(`gateway conformance tests skipped: ${NO_NODE22}`);

if (!node22 && inCi) {
  describe("MCP conformance suite in CI", () => {
    it("has Node 22 to run on", () => {
      throw new Error(`CI must run the gateway conformance suite, but there is ${NO_NODE22}`);
    });
  });
}

describe.skipIf(!node22)("MCP conformance suite against spillway mcp --http", () => {
  let home: string;
  let gateway: { url: string; child: ChildProcess };
  beforeAll(async () => {
    await ensureBuilt();
    home = await mkdtemp(join(tmpdir(), "spillway-conformance-ci-"));
    gateway = await startGateway(home);
  }, 60_000);
  afterAll(async () => {
    if (gateway && gateway.child.exitCode === null) {
      gateway.child.kill("SIGTERM");
      await once(gateway.child, "exit");
    }
    await rm(home, { recursive: true, force: true });
  });

  for (const scenario of SCENARIOS) {
    it(`passes ${scenario}`, async () => {
      const checks = await runConformance(node22 as string, gateway.url, { scenario });
      const summary = summarize(checks);
      expect(summary.scenarios).toBe(1);
      expect(summary.passed).toBeGreaterThan(0);
      expect(summary.notes.filter((n) => n.status === "FAILURE")).toEqual([]);
    }, 120_000);
  }
});
