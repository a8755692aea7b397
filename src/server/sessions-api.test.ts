import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testServerSpec } from "../../test/helpers/agent-fixture.js";
import { serverFixture } from "../../test/helpers/server-fixture.js";
import { tempDir } from "../../test/helpers/temp-store.js";
import {
  findOutputIds,
  generateOutputText,
  type Responder,
  readSse,
  toolCall,
  toolMessages,
} from "../testing/index.js";

const sha = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
const BIG = 20 * 1024 * 1024;

/** Calls generate_output once (blind: it sees only its own tool results), then reports. */
const generateThenReport: Responder = (request) => {
  const results = toolMessages(request);
  if (results.length === 0)
    return toolCall("test__generate_output", { bytes: BIG, kind: "log", needle: "NEEDLE-SSE" });
  return toolCall("agent__final_report", {
    report: `saw ${findOutputIds(results[0]!.text).length} handle(s)`,
  });
};

interface Ev {
  type: string;
  [key: string]: unknown;
}

describe("agent sessions over HTTP", () => {
  it("cuts the SSE preview of a 20 MB result while the store and GET /v1/sessions/:id hold it whole (SHA-256)", async () => {
    const f = await serverFixture(generateThenReport);
    await f.agent("big", { mcpServers: { test: testServerSpec() } });
    const started = await f.post("/v1/sessions", {
      agent: { path: "big.md" },
      prompt: "go",
      settings: { async: false },
    });
    expect(started.status).toBe(201);
    const { session, events: eventsUrl } = (await started.json()) as {
      session: { id: string; status: string };
      events: string;
    };
    expect(session.status).toBe("running");
    expect(eventsUrl).toBe(`/v1/sessions/${session.id}/events`);

    const events = await readSse(`${f.http.url}${eventsUrl}`, {
      until: (e) => e.event === "final",
    });
    const types = events.map((e) => e.event);
    expect(types).toEqual(
      expect.arrayContaining([
        "session.start",
        "turn",
        "model.call",
        "tool.start",
        "tool.end",
        "final",
      ]),
    );
    const end = JSON.parse(events.find((e) => e.event === "tool.end")!.data) as Ev & {
      result: {
        preview: boolean;
        outputId: string;
        totalBytes: number;
        bytesShown: number;
        text: string;
      };
    };
    const expected = generateOutputText({ bytes: BIG, kind: "log", needle: "NEEDLE-SSE" }).text;
    const total = Buffer.byteLength(expected);
    expect(end.result).toMatchObject({ preview: true, totalBytes: total });
    expect(end.result.bytesShown).toBeLessThan(10_000);
    expect(Buffer.byteLength(end.result.text)).toBe(end.result.bytesShown);
    expect(expected.startsWith(end.result.text)).toBe(true);
    // No event on the wire carries the whole result.
    expect(Math.max(...events.map((e) => e.data.length))).toBeLessThan(50_000);

    // The canonical store holds it whole.
    const raw = await f.get(`/v1/outputs/${end.result.outputId}/raw`);
    const bytes = new Uint8Array(await raw.arrayBuffer());
    expect(bytes.byteLength).toBe(total);
    expect(sha(bytes)).toBe(sha(expected));

    // The canonical history pairs the call with its result: as the model saw it, and the record.
    const history = (await (await f.get(`/v1/sessions/${session.id}`)).json()) as {
      session: { status: string; finalReport: string };
      calls: {
        toolName: string;
        status: string;
        result: { shownText: string; output: { sha256: string; byteSize: number } };
      }[];
      context: { fraction: number; label: string }[];
    };
    expect(history.session.status).toBe("completed");
    const call = history.calls.find((c) => c.toolName === "test__generate_output")!;
    expect(call.status).toBe("ok");
    expect(call.result.output).toMatchObject({ sha256: sha(expected), byteSize: total });
    expect(call.result.shownText).toContain(`stored whole as ${end.result.outputId}`);
    expect(history.context.length).toBeGreaterThan(0);
    expect(history.context[0]!.label).toBe("warns at 75%, compacts at 90%, hard limit 95%");

    const contexts = events
      .filter((e) => e.event === "context")
      .map((e) => JSON.parse(e.data) as Ev & { source: string });
    // Two sources in one shape: the projection's count before each call, the provider's after.
    expect(contexts.find((c) => c.source === "model.call")).toMatchObject({
      thresholds: { warn: 0.75, compact: 0.9, hard: 0.95 },
      source: "model.call",
    });
    expect(contexts.find((c) => c.source === "projection")).toMatchObject({
      thresholds: { warn: 0.75, compact: 0.9, hard: 0.95 },
      label: "warns at 75%, compacts at 90%, hard limit 95%",
    });

    // Resume after an event id: exactly the events after it.
    const cut = 2;
    const resumed = await readSse(`${f.http.url}${eventsUrl}`, {
      lastEventId: events[cut]!.id!,
      until: (e) => e.event === "final",
    });
    expect(resumed.map((e) => e.id)).toEqual(events.slice(cut + 1).map((e) => e.id));

    const list = (await (await f.get("/v1/sessions")).json()) as { sessions: { id: string }[] };
    expect(list.sessions.map((s) => s.id)).toContain(session.id);
  });

  it("aborts, refuses to continue a running session (409), stops gracefully and continues an ended one", async () => {
    let turn = 0;
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (JSON.stringify(request.messages.filter((m) => m.role === "user")).includes("again"))
        return toolCall("agent__final_report", { report: "continued" });
      turn++;
      if (results.length === 0 || turn < 3) return toolCall("test__slow", { seconds: 30 });
      return toolCall("agent__final_report", { report: "wrapped up" });
    };
    const f = await serverFixture(respond);
    await f.agent("slow", { mcpServers: { test: testServerSpec() }, async: false });
    const started = (await (
      await f.post("/v1/sessions", { agent: { path: "slow.md" }, prompt: "go" })
    ).json()) as {
      session: { id: string };
    };
    const id = started.session.id;
    const seen: string[] = [];
    const first = readSse(`${f.http.url}/v1/sessions/${id}/events`, {
      onEvent: (e) => seen.push(e.event),
      until: (e) => e.event === "final",
    });
    await waitFor(() => seen.includes("tool.start"));
    const busy = await f.post(`/v1/sessions/${id}/messages`, { prompt: "more" });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toMatchObject({ code: "SESSION_BUSY" });
    expect((await f.post(`/v1/sessions/${id}/abort`, {})).status).toBe(202);
    const final = JSON.parse((await first).at(-1)!.data) as Ev;
    expect(final).toMatchObject({ type: "final", status: "aborted" });
    await waitFor(
      async () =>
        !((await (await f.get(`/v1/sessions/${id}`)).json()) as { session: { live: boolean } })
          .session.live,
    );
    const notRunning = await f.post(`/v1/sessions/${id}/stop`, {});
    expect(notRunning.status).toBe(409);
    expect(await notRunning.json()).toMatchObject({ code: "SESSION_NOT_RUNNING" });

    // Continue the ended session: a new run from its canonical history.
    const again = await f.post(`/v1/sessions/${id}/messages`, { prompt: "again" });
    expect(again.status).toBe(202);
    const after = await readSse(`${f.http.url}/v1/sessions/${id}/events`, {
      until: (e) => e.event === "final" && (JSON.parse(e.data) as Ev).report === "continued",
    });
    expect(after.at(-1)!.event).toBe("final");
    const history = (await (await f.get(`/v1/sessions/${id}`)).json()) as {
      messages: { role: string; parts: { type: string; text?: string }[] }[];
      session: { status: string };
    };
    expect(history.session.status).toBe("completed");
    expect(history.messages.filter((m) => m.role === "user").map((m) => m.parts[0]!.text)).toEqual([
      "go",
      "again",
    ]);
    // Every call has its result.
    const calls = history.messages.flatMap((m) => m.parts.filter((p) => p.type === "tool-call"));
    const results = history.messages.flatMap((m) =>
      m.parts.filter((p) => p.type === "tool-result"),
    );
    expect(results).toHaveLength(calls.length);
  });

  it("graceful stop: the next turn is the final one", async () => {
    const respond: Responder = (request) => {
      const notice = JSON.stringify(request.messages);
      if (/final turn|last turn/i.test(notice) && toolMessages(request).length > 0)
        return toolCall("agent__final_report", { report: "stopped with what I had" });
      return toolCall("test__slow", { seconds: 1 });
    };
    const f = await serverFixture(respond);
    await f.agent("loop", { mcpServers: { test: testServerSpec() }, async: false, maxTurns: 50 });
    const { session } = (await (
      await f.post("/v1/sessions", { agent: { path: "loop.md" }, prompt: "go" })
    ).json()) as {
      session: { id: string };
    };
    const seen: string[] = [];
    const events = readSse(`${f.http.url}/v1/sessions/${session.id}/events`, {
      onEvent: (e) => seen.push(e.event),
      until: (e) => e.event === "final",
    });
    await waitFor(() => seen.includes("tool.end"));
    expect((await f.post(`/v1/sessions/${session.id}/stop`, {})).status).toBe(202);
    const final = JSON.parse((await events).at(-1)!.data) as Ev;
    expect(final.status).toBe("completed");
    const turns = (await events)
      .filter((e) => e.event === "turn")
      .map((e) => JSON.parse(e.data) as Ev);
    expect(turns.at(-1)!.final).toBe(true);
    expect(turns.length).toBeLessThan(50);
  });

  it("refuses agent paths outside the agents directory and inline agents that declare commands", async () => {
    const f = await serverFixture(() => ({ text: "x" }));
    for (const path of ["../outside.md", "/etc/passwd", "nope.txt"]) {
      const res = await f.post("/v1/sessions", { agent: { path }, prompt: "go" });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ details: { field: "body.agent.path" } });
    }
    const missing = await f.post("/v1/sessions", { agent: { path: "missing.md" }, prompt: "go" });
    expect(await missing.json()).toMatchObject({ code: "AGENT_FILE_INVALID" });
    const inline = await f.post("/v1/sessions", {
      agent: { markdown: "---\nmcpServers:\n  sh:\n    command: sh\n---\nBe bad." },
      prompt: "go",
    });
    expect(inline.status).toBe(400);
    expect(await inline.json()).toMatchObject({ details: { key: "mcpServers" } });
    const badYaml = await f.post("/v1/sessions", {
      agent: { markdown: "---\nmaxTurns: many\n---\nx" },
      prompt: "go",
    });
    expect(badYaml.status).toBe(400);
    expect(await badYaml.json()).toMatchObject({ code: "AGENT_FILE_INVALID" });
    const strictBody = await f.post("/v1/sessions", {
      agent: { path: "a.md" },
      prompt: "go",
      settings: { mcpServers: {} },
    });
    expect(await strictBody.json()).toMatchObject({
      details: { fields: [{ field: "body.settings.mcpServers" }] },
    });
    const unknown = await f.get("/v1/sessions/ses_0000000000000000000000000a");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "SESSION_NOT_FOUND" });
  });

  it("keeps tenants' sessions apart: another tenant's session answers 404 like an unknown one", async () => {
    const dir = await tempDir();
    const tokens = join(dir, "tokens.json");
    await writeFile(
      tokens,
      JSON.stringify({ alice: "alice-token-0123456789", bob: "bob-token-0123456789" }),
    );
    const f = await serverFixture(() => toolCall("agent__final_report", { report: "done" }), {
      tokensFile: tokens,
    });
    await f.agent("quick", {});
    const alice = { authorization: "Bearer alice-token-0123456789" };
    const bob = { authorization: "Bearer bob-token-0123456789" };
    const { session } = (await (
      await f.post("/v1/sessions", { agent: { path: "quick.md" }, prompt: "go" }, alice)
    ).json()) as { session: { id: string } };
    await readSse(`${f.http.url}/v1/sessions/${session.id}/events`, {
      headers: alice,
      until: (e) => e.event === "final",
    });
    const other = "ses_0000000000000000000000000z";
    for (const suffix of ["", "/events", "/outputs"]) {
      const theirs = await f.get(`/v1/sessions/${session.id}${suffix}`, bob);
      const unknown = await f.get(`/v1/sessions/${other}${suffix}`, bob);
      expect(theirs.status).toBe(unknown.status);
      const [t, u] = [await theirs.text(), await unknown.text()];
      expect(t.replaceAll(session.id, "ID")).toBe(u.replaceAll(other, "ID"));
    }
    expect((await f.post(`/v1/sessions/${session.id}/messages`, { prompt: "x" }, bob)).status).toBe(
      404,
    );
    const bobList = (await (await f.get("/v1/sessions", bob)).json()) as { sessions: unknown[] };
    expect(bobList.sessions).toEqual([]);
    const aliceList = (await (await f.get("/v1/sessions", alice)).json()) as {
      sessions: { id: string }[];
    };
    expect(aliceList.sessions.map((s) => s.id)).toEqual([session.id]);
  });

  it("runs an inline agent and caps running sessions per tenant (429)", async () => {
    const respond: Responder = (request) =>
      toolMessages(request).length === 0
        ? toolCall("test__slow", { seconds: 30 })
        : toolCall("agent__final_report", { report: "ok" });
    const f = await serverFixture(respond, { maxRunningSessions: 1, allowInlineCommands: true });
    const spec = testServerSpec();
    const markdown = `---\nmodels: ["openai-compatible/scripted/scripted-policy"]\nasync: false\nmcpServers:\n  test:\n    command: ${JSON.stringify(spec.command)}\n    args: ${JSON.stringify(spec.args)}\n---\nYou are inline.`;
    const first = await f.post("/v1/sessions", {
      agent: { markdown, name: "inline-one" },
      prompt: "go",
    });
    expect(first.status).toBe(201);
    const { session } = (await first.json()) as { session: { id: string; agentName: string } };
    expect(session.agentName).toBe("inline-one");
    const second = await f.post("/v1/sessions", { agent: { markdown }, prompt: "go" });
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).not.toBeNull();
    await f.post(`/v1/sessions/${session.id}/abort`, {});
  });
});

async function waitFor(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("condition not met within 30 s");
}
