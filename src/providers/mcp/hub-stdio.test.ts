import { getEventListeners } from "node:events";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSpillwayError, type SpillwayError } from "../../core/errors.js";
import { fixtureServer, processAlive } from "./fixtures/server-specs.js";
import { AUDIO_BYTES, bigText, IMAGE_BYTES, LONG_TOOL_NAME } from "./fixtures/test-tools.js";
import { connectMcpServers, type McpHub } from "./index.js";

async function rejection(promise: Promise<unknown>): Promise<SpillwayError> {
  try {
    await promise;
  } catch (error) {
    if (isSpillwayError(error)) return error;
    throw error;
  }
  throw new Error("expected the promise to reject");
}

function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((c) => c.text ?? "").join("");
}

describe("connectMcpServers over stdio", () => {
  let hub: McpHub;
  let dir: string;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "spillway-mcp-")));
    process.env.SPILLWAY_NOT_INHERITED = "secret"; // set while the servers start
    hub = await connectMcpServers(
      {
        t: fixtureServer(),
        other: { ...fixtureServer(), env: { SPILLWAY_FIXTURE_VAR: "from-spec" }, cwd: dir },
        nope: { command: "spillway-no-such-command", args: ["--serve"] },
        early: fixtureServer("--exit-at-start"),
        bad: fixtureServer("--bad-handshake"),
      },
      { closeGraceMs: 300 },
    );
    delete process.env.SPILLWAY_NOT_INHERITED;
  });

  afterAll(async () => {
    await hub?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("records servers that fail to start instead of throwing, and keeps the others", () => {
    const failures = new Map(hub.failures().map((f) => [f.server, f.error]));
    expect([...failures.keys()].sort()).toEqual(["bad", "early", "nope"]);
    for (const error of failures.values()) expect(error.code).toBe("MCP_SERVER_FAILED");
    expect(failures.get("nope")?.message).toMatch(
      /"nope".*command "spillway-no-such-command" was not found on PATH/,
    );
    expect(failures.get("nope")?.details).toMatchObject({ reason: "command_not_found" });
    expect(failures.get("early")?.message).toMatch(
      /"early".*exited during startup \(exit code 2\)/,
    );
    expect(failures.get("early")?.message).toContain("cannot read config file /nonexistent.toml");
    expect(failures.get("bad")?.message).toMatch(
      /"bad".*refused the MCP handshake.*fixture refuses/,
    );
    const servers = new Set(hub.tools().map((t) => t.server));
    expect([...servers].sort()).toEqual(["other", "t"]);
    expect(hub.servers().map((s) => [s.server, s.state])).toEqual([
      ["t", "connected"],
      ["other", "connected"],
      ["nope", "failed"],
      ["early", "failed"],
      ["bad", "failed"],
    ]);
  });

  it("lists tools namespaced, with provider-safe names mapped back to the originals", () => {
    const tools = hub.tools().filter((t) => t.server === "t");
    const echo = tools.find((t) => t.name === "t__echo");
    expect(echo).toMatchObject({ toolName: "echo", description: "Returns its text." });
    expect(echo?.inputSchema).toMatchObject({
      type: "object",
      properties: { text: { type: "string" } },
    });
    for (const tool of tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const dotted = tools.find((t) => t.toolName === "read.file");
    expect(dotted?.name).toMatch(/^t__read_file_[0-9a-f]{8}$/);
    expect(tools.find((t) => t.toolName === "read_file")?.name).toBe("t__read_file");
    const long = tools.find((t) => t.toolName === LONG_TOOL_NAME);
    expect(long?.name).toHaveLength(64);
  });

  it("routes calls by namespaced name, including made-safe names", async () => {
    expect(text(await hub.callTool("t__echo", { text: "hello" }))).toBe("hello");
    const dotted = hub.tools().find((t) => t.toolName === "read.file")!;
    expect(text(await hub.callTool(dotted.name))).toBe("read.file");
    const long = hub.tools().find((t) => t.toolName === LONG_TOOL_NAME)!;
    expect(text(await hub.callTool(long.name))).toBe(LONG_TOOL_NAME);
  });

  it("starts servers with the spec's env over the default environment, and its cwd", async () => {
    const seen = JSON.parse(
      text(await hub.callTool("other__env", { name: "SPILLWAY_FIXTURE_VAR" })),
    );
    expect(seen).toEqual({ value: "from-spec", cwd: dir });
    const path = JSON.parse(text(await hub.callTool("other__env", { name: "PATH" })));
    expect(path.value).toBe(process.env.PATH);
    const leaked = JSON.parse(
      text(await hub.callTool("t__env", { name: "SPILLWAY_NOT_INHERITED" })),
    );
    expect(leaked.value).toBeNull();
  });

  it("decodes images, audio, resources and links, and keeps structuredContent", async () => {
    const result = await hub.callTool("t__media");
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([
      { type: "binary", kind: "image", mediaType: "image/png", data: IMAGE_BYTES },
      { type: "binary", kind: "audio", mediaType: "audio/wav", data: AUDIO_BYTES },
      { type: "resource", uri: "file:///notes.txt", mediaType: "text/plain", text: "notes" },
      { type: "resource", uri: "file:///blob.bin", data: AUDIO_BYTES },
      { type: "resource_link", uri: "file:///big.log", name: "big.log" },
    ]);
    expect(result.structured).toEqual({ kinds: 5 });
    expect("structured" in (await hub.callTool("t__echo", { text: "x" }))).toBe(false);
  });

  it("returns a tool's own error as a result with isError", async () => {
    const result = await hub.callTool("t__fail");
    expect(result).toEqual({
      isError: true,
      content: [{ type: "text", text: "the fixture tool failed on purpose" }],
      // The result exactly as the server sent it.
      raw: {
        isError: true,
        content: [{ type: "text", text: "the fixture tool failed on purpose" }],
      },
    });
  });

  it("fails a call that takes too long with TOOL_TIMEOUT, and the server goes on", async () => {
    const started = Date.now();
    const error = await rejection(hub.callTool("t__sleep", { ms: 5_000 }, { timeoutMs: 300 }));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(error.code).toBe("TOOL_TIMEOUT");
    expect(error.message).toMatch(/t__sleep.*"t".*300 ms/);
    expect(error.details).toMatchObject({ server: "t", tool: "t__sleep", timeoutMs: 300 });
    expect(text(await hub.callTool("t__echo", { text: "still here" }))).toBe("still here");
  });

  it("lets progress notifications extend the timeout, up to maxTotalTimeoutMs", async () => {
    const steps: number[] = [];
    const result = await hub.callTool(
      "t__sleep",
      { ms: 1_000, progressEveryMs: 100 },
      { timeoutMs: 400, onProgress: (p) => steps.push(p.progress) },
    );
    expect(text(result)).toBe("slept 1000 ms");
    expect(steps.length).toBeGreaterThanOrEqual(5);
    const capped = await rejection(
      hub.callTool(
        "t__sleep",
        { ms: 3_000, progressEveryMs: 100 },
        { timeoutMs: 400, maxTotalTimeoutMs: 700 },
      ),
    );
    expect(capped.code).toBe("TOOL_TIMEOUT");
    expect(capped.message).toContain("700 ms in total");
  });

  it("rejects with ABORTED when the signal aborts, without leaking listeners", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user pressed Ctrl-C")), 100);
    const error = await rejection(
      hub.callTool("t__sleep", { ms: 5_000 }, { signal: controller.signal }),
    );
    expect(error.code).toBe("ABORTED");
    expect(error.message).toMatch(/t__sleep.*aborted: user pressed Ctrl-C/);
    const before = await rejection(
      hub.callTool("t__echo", { text: "x" }, { signal: controller.signal }),
    );
    expect(before.code).toBe("ABORTED");

    const session = new AbortController();
    for (let i = 0; i < 20; i++)
      await hub.callTool("t__echo", { text: `${i}` }, { signal: session.signal });
    expect(getEventListeners(session.signal, "abort")).toHaveLength(0);
  });

  it("rejects unknown names with UNKNOWN_TOOL listing valid ones, and non-object arguments", async () => {
    const unknown = await rejection(hub.callTool("t__nope"));
    expect(unknown.code).toBe("UNKNOWN_TOOL");
    expect(unknown.message).toContain("t__echo");
    expect(unknown.fault).toBe("model");
    const ofFailed = await rejection(hub.callTool("nope__anything"));
    expect(ofFailed.code).toBe("MCP_SERVER_FAILED");
    expect(ofFailed.message).toMatch(/"nope" is not running.*nope__anything.*not found on PATH/);
    const notObject = await rejection(
      hub.callTool("t__echo", [] as unknown as Record<string, unknown>),
    );
    expect(notObject.code).toBe("INVALID_TOOL_ARGUMENTS");
  });

  it("sends large arguments (8 MB; SDK servers accept at most 10 MiB per message)", async () => {
    const big = bigText(4_000_000); // ~8 MB of UTF-8
    expect(text(await hub.callTool("t__echo", { text: big })) === big).toBe(true);
  });

  it("carries a 20 MB multi-byte result exactly", async () => {
    const length = 20_000_000;
    const result = await hub.callTool("t__big_text", { length });
    const received = text(result);
    expect(received.length).toBe(length);
    expect(received === bigText(length)).toBe(true);
  });

  it("rejects a bad server name before starting anything", async () => {
    const error = await rejection(connectMcpServers({ "bad name": fixtureServer() }));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain('"bad name"');
  });
});

describe("a server that dies mid-call", () => {
  let hub: McpHub;

  beforeAll(async () => {
    hub = await connectMcpServers(
      { crashy: fixtureServer(), steady: fixtureServer() },
      { maxRestarts: 1, closeGraceMs: 300 },
    );
  });

  afterAll(async () => {
    await hub?.close();
  });

  const pidOf = (server: string) => hub.servers().find((s) => s.server === server)?.pid;

  it("fails the call with MCP_SERVER_FAILED naming the server, tool and exit code", async () => {
    const pid = pidOf("crashy")!;
    expect(processAlive(pid)).toBe(true);
    const error = await rejection(hub.callTool("crashy__crash", { code: 3 }));
    expect(error.code).toBe("MCP_SERVER_FAILED");
    expect(error.message).toContain(
      'MCP server "crashy" exited while running tool crashy__crash (exit code 3)',
    );
    expect(error.message).toContain("crashing on purpose");
    expect(error.details).toMatchObject({ server: "crashy", tool: "crashy__crash", exitCode: 3 });
    expect(processAlive(pid)).toBe(false);
    expect(hub.servers().find((s) => s.server === "crashy")?.state).toBe("exited");
    expect(text(await hub.callTool("steady__echo", { text: "unaffected" }))).toBe("unaffected");
  });

  it("restarts it once on the next call", async () => {
    expect(text(await hub.callTool("crashy__echo", { text: "back" }))).toBe("back");
    expect(hub.servers().find((s) => s.server === "crashy")?.state).toBe("connected");
  });

  it("after the restart budget is spent, fails fast and lists the server as failed", async () => {
    const crash = await rejection(hub.callTool("crashy__crash", { code: 5 }));
    expect(crash.message).toContain("(exit code 5)");
    const started = Date.now();
    const fast = await rejection(hub.callTool("crashy__echo", { text: "x" }));
    expect(Date.now() - started).toBeLessThan(100);
    expect(fast.code).toBe("MCP_SERVER_FAILED");
    expect(fast.message).toMatch(/"crashy" is not running.*crashy__echo.*exit code 5/);
    expect(hub.failures().map((f) => f.server)).toEqual(["crashy"]);
    expect(text(await hub.callTool("steady__echo", { text: "fine" }))).toBe("fine");
  });
});

describe("message size limit", () => {
  it("stops a server whose message is over maxMessageBytes and says so", async () => {
    const hub = await connectMcpServers(
      { big: fixtureServer() },
      { maxMessageBytes: 1_000_000, closeGraceMs: 300 },
    );
    try {
      const pid = hub.servers()[0]?.pid ?? -1;
      expect(processAlive(pid)).toBe(true);
      const error = await rejection(hub.callTool("big__big_text", { length: 2_000_000 }));
      expect(error.code).toBe("MCP_SERVER_FAILED");
      expect(error.message).toMatch(
        /"big" sent a message of more than \d+ bytes, over the limit of 1000000 bytes/,
      );
      expect(error.details).toMatchObject({
        reason: "message_too_large",
        limit: 1_000_000,
        tool: "big__big_text",
      });
      expect(processAlive(pid)).toBe(false);
      expect(text(await hub.callTool("big__big_text", { length: 1_000 }))).toBe(bigText(1_000));
    } finally {
      await hub.close();
    }
  });
});

describe("close", () => {
  it("ends in-flight calls with ABORTED and leaves no child process behind", async () => {
    const hub = await connectMcpServers(
      { a: fixtureServer(), b: fixtureServer() },
      { closeGraceMs: 300 },
    );
    const pids = hub.servers().map((s) => s.pid!);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(processAlive(pid)).toBe(true);
    // The sleeping tool keeps server "a" alive after stdin ends, so close has to signal it.
    const inFlight = rejection(hub.callTool("a__sleep", { ms: 30_000 }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await hub.close();
    for (const pid of pids) expect(processAlive(pid)).toBe(false);
    expect((await inFlight).code).toBe("ABORTED");
    const after = await rejection(hub.callTool("b__echo", { text: "x" }));
    expect(after.details).toMatchObject({ reason: "closed" });
  });
});
