import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAgent } from "../../src/agent/run-agent.js";
import { readOutput } from "../../src/retrieval/read-output.js";
import { findOutputIds, type Responder, toolCall, toolMessages } from "../../src/testing/index.js";
import { agentFixture } from "../helpers/agent-fixture.js";

/**
 * The real `@modelcontextprotocol/server-filesystem` reads a generated log holding a needle in
 * the middle; a scripted policy model reads the handle message, retrieves the needle through
 * the session's surface and reports it; the canonical store holds the file byte-exact.
 */

const NEEDLE =
  "2026-03-14T09:26:53.589Z ERROR [payment-svc] NEEDLE-pool-exhausted request_id=req_7f3c";

function filesystemServer(root: string) {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve("@modelcontextprotocol/server-filesystem/package.json");
  const { bin } = require(packageJson) as { bin: Record<string, string> };
  return {
    command: process.execPath,
    args: [join(dirname(packageJson), Object.values(bin)[0]!), root],
  };
}

/** Writes a log of about `bytes` with the needle as its middle line; returns its SHA-256. */
async function writeLog(path: string, bytes: number, lineBreak = "\n"): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  const hash = createHash("sha256");
  const out = createWriteStream(path);
  const write = (text: string) => {
    hash.update(text);
    return out.write(text)
      ? Promise.resolve()
      : new Promise<void>((resolve) => out.once("drain", () => resolve()));
  };
  let written = 0;
  let planted = false;
  for (let i = 0; written < bytes; i++) {
    const line =
      !planted && written >= bytes / 2
        ? `${NEEDLE}${lineBreak}`
        : `2026-03-14T09:${String(Math.floor(i / 6000) % 60).padStart(2, "0")}:00.${String(i % 1000).padStart(3, "0")}Z INFO [api-gateway] request_id=req_${i.toString(16)} path=/v1/orders status=200 duration_ms=${i % 97}${lineBreak}`;
    if (line.startsWith(NEEDLE)) planted = true;
    await write(line);
    written += line.length;
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return hash.digest("hex");
}

async function setup(
  respond: Responder,
  surface: string,
  bytes: number,
  settings: Record<string, unknown> = {},
  lineBreak = "\n",
) {
  const fixture = await agentFixture(respond);
  const root = join(fixture.dir, "files");
  const sha256 = await writeLog(join(root, "app.log"), bytes, lineBreak);
  const agent = await fixture.agent("triage", {
    mcpServers: { fs: filesystemServer(root) },
    maxTurns: 80,
    toolOutput: { surface },
    // The handle messages are under test here; with async on, get_tool_output's size trigger
    // would announce the file ready instead (the triage example runs that path).
    async: false,
    ...settings,
  });
  return { fixture, root, sha256, agent };
}

function readFileCall(root: string) {
  return toolCall("fs__read_text_file", { path: join(root, "app.log") });
}

async function expectStoredWhole(
  fixture: Awaited<ReturnType<typeof agentFixture>>,
  sessionId: string,
  sha256: string,
  bytes: number,
) {
  const [record] = (await fixture.stores.outputs.list({ sessionId })).filter(
    (r) => r.toolName === "fs__read_text_file",
  );
  expect(record).toBeDefined();
  expect(record!.sha256).toBe(sha256);
  expect(record!.byteSize).toBeGreaterThanOrEqual(bytes);
  const verify = await fixture.stores.outputs.verify(record!.id, { sessionId });
  expect(verify.ok).toBe(true);
  return record!;
}

describe("server-filesystem, 20 MB log, needle in the middle", () => {
  it("get_tool_output: handle message → grep → slice → report; the store holds the file byte-exact", async () => {
    let root = "";
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      const last = results.at(-1);
      if (!last) return readFileCall(root);
      const id = findOutputIds(results[0]!.text)[0]!;
      if (results.length === 1)
        return toolCall("get_tool_output", { id, mode: "grep", pattern: "NEEDLE-pool-exhausted" });
      if (results.length === 2) {
        const line = Number(/\n(\d+):\d+: /.exec(last.text)![1]);
        return toolCall("get_tool_output", {
          id,
          mode: "slice",
          slice: { line_start: line - 2, line_end: line + 2 },
        });
      }
      const found = last.text.split("\n").find((l) => l.includes("NEEDLE"));
      return toolCall("agent__final_report", { report: `Incident: ${found}` });
    };
    const {
      fixture,
      sha256,
      agent,
      root: r,
    } = await setup(respond, "get_tool_output", 20 * 1024 * 1024);
    root = r;
    const result = await runAgent({
      agent,
      prompt: "Find the incident in app.log.",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.error).toBeNull();
    expect(result.report).toBe(`Incident: ${NEEDLE}`);
    const handle = toolMessages(fixture.server.requests[1]!)[0]!.text;
    expect(
      handle.startsWith("[spillway] The output of fs__read_text_file is stored whole as out_"),
    ).toBe(true);
    expect(handle.length).toBeLessThan(4000);
    await expectStoredWhole(fixture, result.sessionId, sha256, 20 * 1024 * 1024);
  }, 120_000);

  it("tool_output (compatibility surface): the exact handle message; the output stays whole and retrievable", async () => {
    let root = "";
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (results.length === 0) return readFileCall(root);
      const handle = findOutputIds(results[0]!.text)[0]!;
      if (results.length === 1)
        return toolCall("tool_output", { handle, extract: "the ERROR line", mode: "truncate" });
      return toolCall("agent__final_report", { report: results[1]!.text.slice(0, 200) });
    };
    const {
      fixture,
      sha256,
      agent,
      root: r,
    } = await setup(respond, "tool_output", 20 * 1024 * 1024);
    root = r;
    const result = await runAgent({
      agent,
      prompt: "Find the incident.",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.status).toBe("completed");
    const record = await expectStoredWhole(fixture, result.sessionId, sha256, 20 * 1024 * 1024);
    const handle = toolMessages(fixture.server.requests[1]!)[0]!.text;
    expect(handle).toBe(
      `Tool output is too large (${record.byteSize} bytes, ${record.lineCount} lines, ${record.tokenEstimate} tokens).\n` +
        `Call tool_output(handle = "${record.id}", extract = "what to extract").\n` +
        "Provide precise and detailed instructions in `extract` about what you are looking for.",
    );
    expect(
      result.report!.startsWith(
        `ABSTRACT FROM TOOL OUTPUT fs__read_text_file WITH HANDLE ${record.id}, STRATEGY:truncate:`,
      ),
    ).toBe(true);
    // The needle is in the store even though truncation could not show it.
    const grep = await readOutput(
      fixture.stores.outputs,
      record.id,
      { sessionId: result.sessionId },
      { mode: "grep", pattern: "NEEDLE-pool-exhausted" },
    );
    expect(grep.matches[0]!.text).toBe(NEEDLE);
  }, 120_000);

  it("get_continuation (continuation surface): pages forward 4000 characters at a time until the needle", async () => {
    let root = "";
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      const last = results.at(-1);
      if (!last) return readFileCall(root);
      const found = last.text.split("\n").find((l) => l.includes("NEEDLE-pool-exhausted"));
      if (found) return toolCall("agent__final_report", { report: `Incident: ${found}` });
      const marker =
        /showing (\d+)\/\d+ chars\. Call get_continuation with tool_call_id="([^"]+)"/.exec(
          last.text,
        )!;
      return toolCall("get_continuation", { tool_call_id: marker[2], offset: Number(marker[1]) });
    };
    // Paging is linear in the output: 200 KB keeps this to ~25 continuation calls.
    const {
      fixture,
      sha256,
      agent,
      root: r,
    } = await setup(respond, "get_continuation", 200 * 1024);
    root = r;
    const result = await runAgent({
      agent,
      prompt: "Find the incident.",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.report).toBe(`Incident: ${NEEDLE}`);
    // Continuation turns do not count: two counted turns (read, report) for all those calls.
    expect(result.turns).toBe(2);
    expect(fixture.server.requests.length).toBeGreaterThan(20);
    await expectStoredWhole(fixture, result.sessionId, sha256, 200 * 1024);
  }, 120_000);
});

describe("server-filesystem, a partial read", () => {
  /** Asks for the file's last ten lines, then reports what it was shown. */
  const tailThenReport =
    (root: () => string): Responder =>
    (request) => {
      const results = toolMessages(request);
      if (results.length === 0)
        return toolCall("fs__read_text_file", { path: join(root(), "app.log"), tail: 10 });
      return toolCall("agent__final_report", { report: results[0]!.text });
    };

  /** A session over a 2 MB app.log whose model reads its last lines, then reports them. */
  async function tailSession(extra: Record<string, unknown> = {}, lineBreak = "\n") {
    let root = "";
    const session = await setup(
      tailThenReport(() => root),
      "get_tool_output",
      2 * 1024 * 1024,
      extra,
      lineBreak,
    );
    root = session.root;
    const result = await runAgent({
      agent: session.agent,
      prompt: "Find the incident in app.log.",
      stores: session.fixture.stores,
      cwd: session.fixture.dir,
    });
    return { ...session, result };
  }

  it("runs read_text_file whole when it asked for the last lines, and says so; the store holds the file", async () => {
    const { fixture, sha256, root, result } = await tailSession();
    expect(result.status).toBe("completed");
    const handle = toolMessages(fixture.server.requests[1]!)[0]!.text;
    expect(handle).toContain(
      "Your call asked for part of it (tail); the tool was read whole instead, so nothing it holds is out of reach.",
    );
    const record = await expectStoredWhole(fixture, result.sessionId, sha256, 2 * 1024 * 1024);
    expect(JSON.parse(record.toolArgs)).toEqual({ path: join(root, "app.log") });
  }, 120_000);

  it("runs it whole for a CRLF file too, whose last lines the server returns with line feeds", async () => {
    const { fixture, sha256, result } = await tailSession({}, "\r\n");
    expect(result.status).toBe("completed");
    const handle = toolMessages(fixture.server.requests[1]!)[0]!.text;
    expect(handle).toContain("the tool was read whole instead");
    await expectStoredWhole(fixture, result.sessionId, sha256, 2 * 1024 * 1024);
  }, 120_000);

  it("returns the part asked for with guidance.wholeReads off", async () => {
    const { fixture, result } = await tailSession({ guidance: { wholeReads: false } });
    expect(result.status).toBe("completed");
    const shown = toolMessages(fixture.server.requests[1]!)[0]!.text;
    // The file's last ten lines (its final newline counts as one).
    const lines = shown.trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(9);
    expect(lines.length).toBeLessThanOrEqual(10);
    for (const line of lines) expect(line).toMatch(/^2026-03-14T09:\d\d:00\.\d{3}Z INFO /);
    expect(shown).not.toContain("stored whole");
  }, 120_000);
});
