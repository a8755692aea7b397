/**
 * Two `spillway serve` workers (the built CLI, separate processes and homes) on one real
 * PostgreSQL database: an output stored through one is read whole through the other, a session
 * run by one is served, with its history, by the other, and followed over SSE on either (the
 * events cross over LISTEN/NOTIFY); the CLI's --store reads the same data,
 * and what works only on SQLite refuses PostgreSQL by name. The model is the scripted stand-in,
 * playing blind from the tool results it is shown.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  findOutputIds,
  type Responder,
  readSse,
  textOf,
  toolCall,
  toolMessages,
} from "../../src/testing/index.js";
import { agentFixture, testServerSpec } from "../helpers/agent-fixture.js";
import { ensureBuilt, runCli } from "../helpers/built-cli.js";
import { startServeWorker } from "../helpers/serve-worker.js";
import { postgresServer } from "../helpers/store-engines.js";
import { tempDir } from "../helpers/temp-store.js";

const NEEDLE = "NEEDLE-two-workers-4410";
/** Holds the model's first reply until opened, so a session stays running while the test looks. */
let firstReply: Promise<void> = Promise.resolve();

const SLOW_TEXT = "SLOW-RESULT-8812";

const policy: Responder = async (request) => {
  const results = toolMessages(request);
  const last = results.at(-1);
  // The slow job (another agent, another prompt): start it, wait for it, report what it said.
  if (textOf(request.messages.find((m) => m.role === "user") ?? {}).includes("slow job")) {
    if (!last) return toolCall("test__slow", { seconds: 2, text: SLOW_TEXT });
    if (last.toolName === "test__slow") return toolCall("wait_for_tool_output", {});
    return toolCall("agent__final_report", { report: last.text.slice(0, 200) });
  }
  if (!last) await firstReply;
  if (!last)
    return toolCall("test__generate_output", {
      bytes: 600_000,
      kind: "log",
      needle: NEEDLE,
      needle_at: 0.4,
    });
  if (last.toolName === "test__generate_output")
    return toolCall("get_tool_output", {
      id: findOutputIds(last.text)[0],
      mode: "grep",
      pattern: NEEDLE,
    });
  const found = last.text.split("\n").find((line) => line.includes(NEEDLE)) ?? "not found";
  return toolCall("agent__final_report", { report: `Found: ${found}` });
};

describe("two spillway serve workers on one PostgreSQL", () => {
  it("serve each other's outputs and sessions; the CLI's --store reads the same data", async () => {
    await ensureBuilt();
    const fixture = await agentFixture(policy);
    await fixture.agent("finder", {
      mcpServers: { test: testServerSpec() },
      maxTurns: 5,
      async: false,
    });
    const store = await (await postgresServer()).createDatabase();
    const a = (await startServeWorker(store, fixture.dir)).url;
    const b = (await startServeWorker(store, fixture.dir)).url;

    // An output stored through A, read whole through B.
    const body = `${`${"x".repeat(80)}\n`.repeat(40_000)}the ${NEEDLE} line\n`;
    const put = await fetch(`${a}/v1/outputs?session=ses_shared&tool=fs__read&args=%7B%7D`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body,
    });
    expect(put.status).toBe(201);
    const { output } = (await put.json()) as { output: { id: string; sha256: string } };
    const raw = Buffer.from(await (await fetch(`${b}/v1/outputs/${output.id}/raw`)).arrayBuffer());
    expect(createHash("sha256").update(raw).digest("hex")).toBe(output.sha256);
    const grep = (await (
      await fetch(`${b}/v1/outputs/${output.id}/content?mode=grep&pattern=${NEEDLE}`)
    ).json()) as {
      matches: { line: number }[];
    };
    expect(grep.matches.map((m) => m.line)).toEqual([40_001]);

    // A session run by A, served with its history by B; while A runs it, B refuses to
    // continue it (A holds its lease), and takes it once A is done.
    let open = () => {};
    firstReply = new Promise((resolve) => {
      open = resolve;
    });
    const started = await fetch(`${a}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ agent: { path: "finder.md" }, prompt: "Find the needle." }),
    });
    expect(started.status).toBe(201);
    const { session } = (await started.json()) as { session: { id: string } };
    const continueOn = (worker: string) =>
      fetch(`${worker}/v1/sessions/${session.id}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ prompt: "Find it again." }),
      });
    const busy = await continueOn(b);
    expect(busy.status).toBe(409);
    const problem = (await busy.json()) as { code: string; message: string };
    expect(problem.code).toBe("SESSION_BUSY");
    expect(problem.message).toContain("running on another worker");
    // SSE clients on both workers follow the run on A (B's events come over LISTEN/NOTIFY).
    const eventsOf = (worker: string, lastEventId?: string) =>
      readSse(`${worker}/v1/sessions/${session.id}/events`, lastEventId ? { lastEventId } : {});
    const onA = eventsOf(a);
    const onB = eventsOf(b);
    await new Promise((done) => setTimeout(done, 300)); // both subscribed before the run goes on
    open();
    const [followedOnA, followedOnB] = await Promise.all([onA, onB]);
    const withIds = (events: typeof followedOnA) => events.filter((e) => e.id !== null);
    expect(withIds(followedOnB).map((e) => `${e.id} ${e.event}`)).toEqual(
      withIds(followedOnA).map((e) => `${e.id} ${e.event}`),
    );
    expect(followedOnB.map((e) => e.event)).toEqual(
      expect.arrayContaining(["session.start", "tool.start", "tool.end", "final"]),
    );
    const final = followedOnB.find((e) => e.event === "final");
    expect(final?.data).toContain(NEEDLE);
    // A subscriber that read part of the run on B resumes on A with its Last-Event-ID.
    const cursor = withIds(followedOnB)[2]!.id!;
    const resumed = await eventsOf(a, cursor);
    expect(resumed.filter((e) => e.event === "reset")).toEqual([]);
    expect(withIds(resumed).map((e) => e.id)).toEqual(
      withIds(followedOnA)
        .slice(3)
        .map((e) => e.id),
    );
    let seen:
      | { session: { status: string; finalReport: string | null }; calls: { toolName: string }[] }
      | undefined;
    for (let i = 0; i < 150 && seen?.session.status !== "completed"; i++) {
      await new Promise((done) => setTimeout(done, 200));
      const answer = await fetch(`${b}/v1/sessions/${session.id}`);
      if (answer.status === 200) seen = (await answer.json()) as typeof seen;
    }
    expect(seen?.session.status).toBe("completed");
    expect(seen?.session.finalReport).toContain(NEEDLE);
    expect(seen?.calls.map((c) => c.toolName)).toEqual([
      "test__generate_output",
      "get_tool_output",
      "agent__final_report",
    ]);
    // A has ended the run and released the lease: B continues the session.
    let continued = await continueOn(b);
    for (let i = 0; i < 20 && continued.status === 409; i++) {
      await new Promise((done) => setTimeout(done, 100));
      continued = await continueOn(b);
    }
    expect(continued.status).toBe(202);

    // A tool that goes on in the background on A; a client of B waits for its output.
    await fixture.agent("slowpoke", {
      mcpServers: { test: testServerSpec() },
      maxTurns: 5,
      asyncTimeoutSecs: 0.3,
    });
    const slowStart = await fetch(`${a}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ agent: { path: "slowpoke.md" }, prompt: "Run the slow job." }),
    });
    expect(slowStart.status).toBe(201);
    const slowId = ((await slowStart.json()) as { session: { id: string } }).session.id;
    const running = await readSse(`${b}/v1/sessions/${slowId}/events`, {
      until: (e) => e.event === "background",
    });
    const backgrounded = JSON.parse(running.at(-1)!.data) as { state: string; outputId: string };
    expect(backgrounded.state).toBe("running");
    const before = (await (await fetch(`${b}/v1/outputs/${backgrounded.outputId}`)).json()) as {
      status: string;
    };
    expect(before.status).toBe("running");
    const waited = (await (
      await fetch(`${b}/v1/outputs/${backgrounded.outputId}?wait=30`)
    ).json()) as { status: string };
    expect(waited.status).toBe("ready");
    const slowText = await (await fetch(`${b}/v1/outputs/${backgrounded.outputId}/raw`)).text();
    expect(slowText).toContain(SLOW_TEXT);
    const tooLong = await fetch(`${b}/v1/outputs/${backgrounded.outputId}?wait=600`);
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain("wait");

    // The CLI on the same database, from a third home.
    const cliHome = await tempDir();
    const list = await runCli(["--store", store, "outputs", "list", "--json"], {
      cwd: fixture.dir,
      home: cliHome,
    });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(output.id);
    const show = await runCli(["--store", store, "sessions", "show", session.id], {
      cwd: fixture.dir,
      home: cliHome,
    });
    expect(show.stdout).toMatch(/^status +completed$/m);
    const stats = await runCli(["--store", store, "store", "stats"], {
      cwd: fixture.dir,
      home: cliHome,
    });
    expect(stats.code).not.toBe(0);
    expect(stats.stderr).toContain("works on the SQLite store in --home, not on PostgreSQL");
    const bad = await runCli(["--store", "mysql://u:secret@h/db", "outputs", "list"], {
      cwd: fixture.dir,
      home: cliHome,
    });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--store");
    expect(bad.stderr).not.toContain("secret");
  });
});
