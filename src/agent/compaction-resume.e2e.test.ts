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
  type Responder,
  type ScriptedReply,
  textOf,
  toolCall,
  toolMessages,
} from "../testing/index.js";
import type { AgentEvent } from "./events.js";
import { runAgent } from "./run-agent.js";
import { sessionCounters } from "./session-counters.js";

/**
 * Resume across a compaction, and compaction failures, with the scripted model (blind: it
 * reads the turn number and the summary header from what it was sent, nothing else).
 */

const SIZES = [800, 2_500, 4_000];
// 10,240 less the reply, over the 1.3 tokenizer margin of an openai-compatible model: about 7,100 counted tokens.
const SMALL_WINDOW = { contextWindow: 10_240, maxOutputTokens: 1_024 };

function filler(turn: number): ScriptedReply {
  return toolCall("test__generate_output", {
    bytes: SIZES[turn % SIZES.length],
    kind: "log",
    seed: turn,
  });
}

/** Which compaction the summary the agent was sent says it is (0: none). */
function compactionNumber(request: ChatRequest): number {
  return Number(/compaction (\d+) of this session/.exec(summaryMessage(request) ?? "")?.[1] ?? 0);
}

const agentRequests = (requests: readonly ChatRequest[]) =>
  requests.filter((r) => !isSummarizerRequest(r));

describe("compaction: resume", () => {
  it("rebuilds the same projection from the stored summary and summarizes nothing twice", async () => {
    // Reports once its summary is compaction `stopAt`: 2 in the first run, 3 after the resume.
    let stopAt = 2;
    const respond: Responder = (request) => {
      if (isSummarizerRequest(request)) return scriptedSummary(request);
      if (compactionNumber(request) >= stopAt)
        return toolCall("agent__final_report", { report: `reached compaction ${stopAt}` });
      return filler(turnOf(request));
    };
    const fixture = await agentFixture(respond);
    const agent = await fixture.agent("resumable", {
      mcpServers: { test: testServerSpec() },
      maxTurns: 80,
      ...SMALL_WINDOW,
    });
    const first = await runAgent({
      agent,
      prompt: "Generate outputs.",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(first).toMatchObject({ status: "completed", report: "reached compaction 2" });
    const before = agentRequests(fixture.server.requests);
    const lastBefore = before.at(-1)!;
    const summarizerCalls = fixture.server.requests.length - before.length;
    expect(summarizerCalls).toBe(2);

    stopAt = 3;
    const events: AgentEvent[] = [];
    const second = await runAgent({
      resume: first.sessionId,
      prompt: "Continue: generate more.",
      stores: fixture.stores,
      onEvent: (e) => events.push(e),
    });
    expect(second).toMatchObject({ status: "completed", report: "reached compaction 3" });
    const after = agentRequests(fixture.server.requests).slice(before.length);
    const firstAfter = after[0]!;
    // The same projection: system, task, summary and recent messages exactly as before the
    // restart, then the final report call, its result and the new prompt. Neither request ends
    // with a notice: nothing runs in the background and neither turn is the last (notice.ts).
    const kept = lastBefore.messages;
    expect(kept.at(-1)!.role).toBe("tool");
    expect(firstAfter.messages.slice(0, kept.length)).toEqual(kept);
    const added = firstAfter.messages.slice(kept.length);
    expect(added.map((m) => m.role)).toEqual(["assistant", "tool", "user"]);
    expect(added[0]).toMatchObject({
      tool_calls: [{ function: { name: "agent__final_report" } }],
    });
    expect(textOf(added[1]!)).toBe("Final report received.");
    expect(textOf(added[2]!)).toBe("Continue: generate more.");
    expect(summaryMessage(firstAfter)).toContain("compaction 2 of this session");
    // Nothing summarized twice: one more summarizer call, over turns after summary 2's.
    const summaries = await fixture.stores.history.summaries(first.sessionId);
    expect(summaries.map((s) => s.seq)).toEqual([1, 2, 3]);
    expect(summaries[2]!.fromSeq).toBe(summaries[1]!.throughSeq + 1);
    const summarizer = fixture.server.requests.filter(isSummarizerRequest);
    expect(summarizer).toHaveLength(3);
    expect(Math.min(...summarizedTurns(summarizer[2]!))).toBeGreaterThan(
      summaries[1]!.throughTurn - 1,
    );
    expect(textOf(summarizer[2]!.messages.at(-1)!)).toContain(summaries[1]!.summary);
    expect(events.filter((e) => e.type === "compaction")).toHaveLength(1);
  });
});

describe("compaction: failures fall back to handle form and say so", () => {
  const cases: { name: string; summarizer: () => ScriptedReply; code: string }[] = [
    {
      name: "the summarizer model errors",
      summarizer: () => ({ error: { status: 400, message: "scripted: context length exceeded" } }),
      code: "MODEL_UNAVAILABLE",
    },
    {
      name: "the summary is too long",
      summarizer: () => ({ text: "word ".repeat(4_000) }),
      code: "SUMMARY_TOO_LONG",
    },
  ];
  for (const { name, summarizer, code } of cases) {
    it(name, async () => {
      const respond: Responder = (request) => {
        if (isSummarizerRequest(request)) return summarizer();
        const turn = turnOf(request);
        return turn >= 16 ? toolCall("agent__final_report", { report: "done" }) : filler(turn);
      };
      const fixture = await agentFixture(respond);
      const agent = await fixture.agent("failing", {
        mcpServers: { test: testServerSpec() },
        maxTurns: 20,
        ...SMALL_WINDOW,
      });
      const events: AgentEvent[] = [];
      const result = await runAgent({
        agent,
        prompt: "Generate outputs.",
        stores: fixture.stores,
        cwd: fixture.dir,
        onEvent: (e) => events.push(e),
      });
      if (result.error)
        console.log(
          JSON.stringify(
            fixture.server.requests.map((r) => [
              isSummarizerRequest(r),
              turnOf(r),
              textOf(r.messages.at(-1)!).slice(30, 120),
            ]),
          ),
        );
      expect(result.error).toBeNull();
      expect(result.status).toBe("completed");
      const failures = events.filter((e) => e.type === "compaction");
      expect(failures.length).toBeGreaterThanOrEqual(1);
      const failure = failures[0]!;
      expect(failure).toMatchObject({ status: "failed", code, fallback: "handle-form" });
      if (failure.type !== "compaction") throw new Error("unreachable");
      expect(failure.shortened).toBeGreaterThan(0);
      expect(failure.tokensAfter).toBeLessThan(failure.tokensBefore);
      expect(
        events.some(
          (e) => e.type === "warning" && e.message.startsWith(`Compaction failed (${code}`),
        ),
      ).toBe(true);
      // The shortened results name their handles, from the turn of the failure on. No notice
      // says so: spillway's notice carries background tools and the final turn only (SW-26).
      const told = agentRequests(fixture.server.requests).find((r) =>
        toolMessages(r).some((t) => t.text.includes("removed from this context to make room")),
      )!;
      expect(textOf(told.messages.at(-1)!)).not.toContain("could not be summarized");
      expect(turnOf(told)).toBe(failure.turn);
      const shortened = toolMessages(told).filter((t) =>
        t.text.includes("removed from this context to make room"),
      );
      expect(shortened.length).toBe(failure.shortened);
      for (const t of shortened) expect(t.text).toMatch(/out_[0-9a-z]{26}/);
      // Nothing was dropped or written: no summary, every call paired, canonical results inline.
      expect(await fixture.stores.history.summaries(result.sessionId)).toEqual([]);
      const counters = await sessionCounters(fixture.stores.history, result.sessionId);
      expect(counters).toMatchObject({
        compactions: 0,
        missingToolResults: 0,
        truncatedCanonicalWrites: 0,
      });
      expect(counters.compactionFailures).toBe(failures.length);
      expect(toolMessages(agentRequests(fixture.server.requests).at(-1)!).length).toBe(
        counters.toolCalls - 1,
      );
    });
  }
});
