import { readFile } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import {
  isSummarizerRequest,
  scriptedSummary,
  summarizedTurns,
  summaryMessage,
  turnOf,
} from "../../test/helpers/compaction-policy.js";
import {
  type ChatRequest,
  findOutputIds,
  type Responder,
  type ScriptedReply,
  toolCall,
  toolMessages,
} from "../testing/index.js";
import type { AgentEvent } from "./events.js";
import { runAgent } from "./run-agent.js";
import { sessionCounters } from "./session-counters.js";

/**
 * Long sessions under a small window, with the scripted model (real HTTP, real MCP test
 * server, real SQLite). The agent policy is blind: it knows its own plan (which needle it
 * planted), never where spillway put anything; it finds handles in what it was sent.
 */

const NEEDLE = "NEEDLE-COMPACT-7Q4";
const SIZES = [200, 800, 2_500, 6_000, 15_000];
const KINDS = ["text", "log", "json"];

type Compaction = Extract<AgentEvent, { type: "compaction" }>;

function filler(turn: number): ScriptedReply {
  return toolCall("test__generate_output", {
    bytes: SIZES[turn % SIZES.length],
    kind: KINDS[turn % KINDS.length],
    seed: turn,
  });
}

/** The handle of the needle's output in the summary's index lines (or in an index read). */
function needleHandle(text: string): string | undefined {
  const line = text.split("\n").find((l) => l.includes(`"needle":"${NEEDLE}"`));
  return line ? /→ (out_[0-9a-z]{26})/.exec(line)?.[1] : undefined;
}

/**
 * The agent: filler tool calls; at turn 10 it plants the needle, at 11 it greps it; from
 * turn `reread` it finds the needle's handle again in the summary (or the stored index the
 * summary names), greps it, and reports the line it read.
 */
function longSessionAgent(reread: number, beforeSummary: () => void = () => {}): Responder {
  return (request: ChatRequest) => {
    if (isSummarizerRequest(request)) {
      beforeSummary();
      return scriptedSummary(request);
    }
    const turn = turnOf(request);
    const last = toolMessages(request).at(-1)?.text ?? "";
    if (turn === 10)
      return toolCall("test__generate_output", { bytes: 20_000, kind: "log", needle: NEEDLE });
    if (turn === 11)
      return toolCall("get_tool_output", {
        id: findOutputIds(last)[0],
        mode: "grep",
        pattern: NEEDLE,
      });
    if (turn < reread) return filler(turn);
    const fromIndex = needleHandle(last);
    if (fromIndex)
      return toolCall("get_tool_output", { id: fromIndex, mode: "grep", pattern: NEEDLE });
    if (turn > reread && last.includes(NEEDLE)) {
      const line = last.split("\n").find((l) => l.includes(NEEDLE) && !l.startsWith("["));
      return toolCall("agent__final_report", { report: line ?? "not found" });
    }
    const summary = summaryMessage(request) ?? "";
    const handle = needleHandle(summary);
    if (handle) return toolCall("get_tool_output", { id: handle, mode: "grep", pattern: NEEDLE });
    const index = /stored index (out_[0-9a-z]{26})/.exec(summary)?.[1];
    if (index) return toolCall("get_tool_output", { id: index, mode: "grep", pattern: NEEDLE });
    return toolCall("agent__final_report", { report: "the summary names no handle" });
  };
}

/** Every message row as stored (bytes), by seq. */
function rows(dbPath: string, sessionId: string): Map<number, string> {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const all = db
      .prepare("SELECT seq, turn, role, parts, created_at FROM messages WHERE session_id = ?")
      .all(sessionId) as {
      seq: number;
      turn: number;
      role: string;
      parts: string;
      created_at: number;
    }[];
    return new Map(all.map((r) => [r.seq, `${r.turn}|${r.role}|${r.created_at}|${r.parts}`]));
  } finally {
    db.close();
  }
}

describe("compaction: 200 turns under a 16K window (scripted model)", () => {
  it("completes, pairs every call with its result, keeps covered rows byte-identical, and re-reads a turn-10 needle through a handle the summary names", async () => {
    const firstSeen = new Map<number, string>();
    let sessionId = "";
    let dbPath = "";
    // Before each compaction stores its summary: the rows as they are, to compare at the end.
    const snapshot = () => {
      for (const [seq, row] of rows(dbPath, sessionId))
        if (!firstSeen.has(seq)) firstSeen.set(seq, row);
    };
    const fixture = await agentFixture(longSessionAgent(190, snapshot));
    dbPath = join(fixture.home, "spillway.db");
    const agent = await fixture.agent("long", {
      mcpServers: { test: testServerSpec() },
      maxTurns: 205,
      contextWindow: 16_384,
    });
    const events: AgentEvent[] = [];
    const result = await runAgent({
      agent,
      prompt: "Generate outputs, note the needle, and report its line at the end.",
      stores: fixture.stores,
      cwd: fixture.dir,
      onEvent: (event) => {
        events.push(event);
        if (event.type === "session.start") sessionId = event.sessionId;
        // Before each compaction: the rows as they are, to compare with the rows at the end.
        if (event.type === "turn.start")
          for (const [seq, row] of rows(dbPath, sessionId))
            if (!firstSeen.has(seq)) firstSeen.set(seq, row);
      },
    });
    expect(result.status).toBe("completed");
    expect(result.turns).toBeGreaterThanOrEqual(191);
    expect(fixture.server.failures).toEqual([]);

    // Compactions happened, again and again over earlier summaries, each smaller after.
    const compactions = events.filter((e): e is Compaction => e.type === "compaction");
    expect(compactions.length).toBeGreaterThanOrEqual(5);
    expect(compactions.every((c) => c.status === "compacted")).toBe(true);
    expect(compactions.slice(1).every((c) => c.recompaction === true)).toBe(true);
    for (const c of compactions) expect(c.tokensAfter).toBeLessThan(c.tokensBefore);
    const contexts = events.filter((e) => e.type === "context");
    expect(Math.max(...contexts.map((c) => c.tokens))).toBeLessThanOrEqual(
      contexts[0]!.thresholdTokens.hard,
    );

    // Every call has exactly one result in the canonical history.
    const messages = await fixture.stores.history.messages(result.sessionId);
    const calls = messages.flatMap((m) =>
      m.parts.flatMap((p) => (p.type === "tool-call" ? [p.toolCallId] : [])),
    );
    const results = messages.flatMap((m) =>
      m.parts.flatMap((p) => (p.type === "tool-result" ? [p.toolCallId] : [])),
    );
    expect(calls.length).toBeGreaterThanOrEqual(190);
    expect([...results].sort()).toEqual([...calls].sort());
    const counters = await sessionCounters(fixture.stores.history, result.sessionId);
    expect(counters).toMatchObject({
      truncatedCanonicalWrites: 0,
      missingToolResults: 0,
      compactions: compactions.length,
      compactionFailures: 0,
    });
    expect(counters.tokensSaved).toBeGreaterThan(0);

    // Summaries are records of their own; the rows they cover are byte-identical.
    const summaries = await fixture.stores.history.summaries(result.sessionId);
    expect(summaries).toHaveLength(compactions.length);
    for (const [i, s] of summaries.entries()) {
      const before = summaries[i - 1];
      expect(s.fromSeq).toBe(before ? before.throughSeq + 1 : 2);
    }
    const after = rows(dbPath, result.sessionId);
    expect(firstSeen.size).toBeGreaterThan(summaries.at(-1)!.throughSeq);
    for (const [seq, row] of firstSeen) expect(after.get(seq)).toBe(row);
    expect(after.size).toBe(messages.length);

    // Nothing summarized twice: each summarizer request covers turns after the last one's.
    const summarizer = fixture.server.requests.filter(isSummarizerRequest);
    expect(summarizer).toHaveLength(summaries.length);
    let covered = 0;
    for (const request of summarizer) {
      const turns = summarizedTurns(request);
      expect(Math.min(...turns)).toBeGreaterThanOrEqual(covered);
      covered = Math.max(...turns) + 1;
    }

    // The needle: read at turn 11, read again from turn 190 through the handle the summary named.
    const firstRead = messages.flatMap((m) =>
      m.parts.flatMap((p) =>
        p.type === "tool-result" && p.result.kind === "retrieval" && p.result.text.includes(NEEDLE)
          ? [p.result]
          : [],
      ),
    )[0]!;
    const needleLine = firstRead.text
      .split("\n")
      .find((l) => l.includes(NEEDLE) && !l.startsWith("["))!;
    expect(result.report).toBe(needleLine);
    const rereads = (await fixture.stores.history.toolCalls(result.sessionId)).filter(
      (c) => c.turn >= 190 && c.toolName === "get_tool_output",
    );
    const handle = JSON.parse(rereads.at(-1)!.argsText).id as string;
    const plantCall = (await fixture.stores.history.toolCalls(result.sessionId)).find(
      (c) => c.argsText.includes(NEEDLE) && c.toolName === "test__generate_output",
    )!;
    expect(handle).toBe(plantCall.outputId);
    // The agent found it in text it was sent: the summary's index, or the stored index it names.
    const sent = fixture.server.requests.filter((r) => !isSummarizerRequest(r) && turnOf(r) >= 190);
    const shown = sent.some(
      (r) =>
        needleHandle(summaryMessage(r) ?? "") === handle ||
        toolMessages(r).some((t) => needleHandle(t.text) === handle),
    );
    expect(shown).toBe(true);

    // Each compaction is in the trace with its token counts.
    const trace = (await readFile(result.tracePath, "utf8"))
      .split("\n")
      .filter((l) => l.includes('"type":"compaction"'));
    expect(trace).toHaveLength(compactions.length);
    expect(JSON.parse(trace[0]!)).toMatchObject({ tokensBefore: compactions[0]!.tokensBefore });
  });
});
