/**
 * Plays the tasks of a workload on the real spillway runtime: one session per task, the output
 * fetched through MCP and stored by the interception point, then read on purpose by the blind
 * scripted agent (eval/agents/spillway-agent.ts) behind the scripted model server. The episode
 * is scored from `result.report`; tokens are counted from the requests the server received.
 */
import type { AgentEvent } from "../src/agent/events.js";
import { runAgent } from "../src/agent/run-agent.js";
import { type ChatRequest, extractionCall, type Responder } from "../src/testing/index.js";
import { responderOf } from "./agents/conversation.js";
import { extractionModel } from "./agents/extraction-model.js";
import { spillwayAgent } from "./agents/spillway-agent.js";
import { type Episode, scoredEpisode } from "./episode.js";
import { type Prepared, promptOf } from "./prepared.js";
import { requestTokens } from "./request-tokens.js";
import { EVAL_EXTRACT_MODEL, EVAL_MODEL, type SpillwayEnv } from "./spillway-env.js";

export type SpillwayPolicy = "spillway" | "spillway-extract";

const MODEL_OF: Record<SpillwayPolicy, string> = {
  spillway: EVAL_MODEL,
  "spillway-extract": EVAL_EXTRACT_MODEL,
};

/**
 * The scripted model server's responder: the extraction model for extraction calls, else the
 * blind agent of the strategy the request's model names (extract first, or not).
 */
export function spillwayResponder(): Responder {
  const plain = responderOf(spillwayAgent({ extractFirst: false }));
  const extractFirst = responderOf(spillwayAgent({ extractFirst: true }));
  return (request, context) =>
    extractionModel(request) ??
    (request.model.endsWith("scripted-extract-agent")
      ? extractFirst(request, context)
      : plain(request, context));
}

/** The retrieval tools of spillway's surface. */
const RETRIEVALS = new Set(["get_tool_output", "wait_for_tool_output"]);

/** Tokens the extraction model read and wrote (its requests, as the server counted them). */
function extractionTokens(events: readonly AgentEvent[], mainSessionId: string) {
  let tokens = 0;
  let latencyMs = 0;
  for (const e of events) {
    if (
      (e.type === "extraction.call" && !e.cached) ||
      (e.type === "model.call" && e.sessionId !== mainSessionId)
    ) {
      tokens += e.inputTokens + e.outputTokens;
      latencyMs += e.latencyMs;
    }
  }
  return { tokens, latencyMs };
}

export async function runSpillwayPolicy(
  env: SpillwayEnv,
  p: Prepared,
  policy: SpillwayPolicy,
): Promise<Episode[]> {
  const { workload } = p;
  env.outputs.set(p.docId, workload.text);
  const episodes: Episode[] = [];
  try {
    for (const task of workload.tasks) {
      const events: AgentEvent[] = [];
      env.server.requests.length = 0;
      const result = await runAgent({
        agent: env.agentPath,
        prompt: promptOf(task, p.docId),
        model: MODEL_OF[policy],
        stores: env.stores,
        cwd: env.dir,
        onEvent: (event) => events.push(event),
      });
      if (result.status !== "completed")
        throw new Error(
          `${policy} ${task.id}: the session ended ${result.status}: ${result.error}`,
        );
      const main: ChatRequest[] = env.server.requests.filter((r) => !extractionCall(r));
      // Everything the agent was sent: its tool results, as its last request holds them.
      const last = main.at(-1);
      const shown = (last?.messages ?? [])
        .filter((m) => m.role === "tool")
        .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
      const top = events.filter((e) => e.sessionId === result.sessionId);
      const calls = top.flatMap((e) => (e.type === "tool.end" ? [e.toolName] : []));
      const fetched = top.find(
        (e): e is Extract<AgentEvent, { type: "tool.end" }> =>
          e.type === "tool.end" && e.toolName === "data__fetch",
      );
      const outputId = fetched?.outputId;
      if (!outputId) throw new Error(`${policy} ${task.id}: the fetch stored no output`);
      const stored = await env.stores.outputs.get(outputId, { sessionId: result.sessionId });
      const storeMs = (stored.completedAt ?? stored.createdAt) - stored.createdAt;
      const readMs = top.reduce(
        (sum, e) =>
          e.type === "tool.end" && RETRIEVALS.has(e.toolName) ? sum + e.durationMs : sum,
        0,
      );
      const extraction = extractionTokens(events, result.sessionId);
      const verify = await env.stores.outputs.verify(outputId, { sessionId: result.sessionId });
      episodes.push(
        scoredEpisode(policy, task, {
          report: result.report,
          retrieved: calls.some((c) => RETRIEVALS.has(c)),
          tokensSent: main.reduce((sum, r) => sum + requestTokens(r, p.count), 0),
          requests: main.length,
          tokensExposed: shown.reduce((sum, text) => sum + p.count(text), 0),
          outputTokens: p.outputTokens,
          toolCalls: calls.filter((c) => RETRIEVALS.has(c)).length,
          // Extraction reads run the extraction model inside get_tool_output: its time is model time.
          wallMs: Math.max(0, storeMs + readMs - extraction.latencyMs),
          ...(policy === "spillway-extract" ? { extractionTokens: extraction.tokens } : {}),
          visibleFraction: null,
          lossless: verify.ok && stored.sha256 === workload.sha256,
          failure: null,
          shown: shown.join("\n"),
        }),
      );
    }
  } finally {
    env.outputs.delete(p.docId);
  }
  return episodes;
}
