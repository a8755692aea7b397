/**
 * Plays the tasks of a workload on the real spillway runtime: one session per task, the output
 * fetched through MCP and stored by the interception point, then read on purpose.
 */
import type { AgentEvent } from "../src/agent/events.js";
import { runAgent } from "../src/agent/run-agent.js";
import { type Episode, scoredEpisode } from "./episode.js";
import type { Prepared } from "./prepared.js";
import { type AgentState, promptOf, type SpillwayPolicy } from "./spillway-agent.js";
import type { SpillwayEnv } from "./spillway-env.js";

/**
 * What the extraction model did for one task: the map/reduce calls (`extraction.call`) and the
 * read-grep agent's model calls (its own session, so not the main one). Cached answers cost
 * nothing.
 */
function extractionModelUse(
  events: readonly AgentEvent[],
  mainSessionId: string,
): { tokens: number; latencyMs: number } {
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
  state: AgentState,
  p: Prepared,
  policy: SpillwayPolicy,
): Promise<Episode[]> {
  const { workload } = p;
  env.outputs.set(workload.id, workload.text);
  const episodes: Episode[] = [];
  try {
    for (const task of workload.tasks) {
      state.tasks.set(task.id, { task, workloadId: workload.id, policy });
      const events: AgentEvent[] = [];
      const result = await runAgent({
        agent: env.agentPath,
        prompt: promptOf(task),
        stores: env.stores,
        cwd: env.dir,
        onEvent: (event) => events.push(event),
      });
      const record = state.records.get(task.id);
      state.tasks.delete(task.id);
      state.records.delete(task.id);
      if (result.status !== "completed" || !record)
        throw new Error(
          `${policy} ${task.id}: the session ended ${result.status}: ${result.error}`,
        );
      // Harness time: the interception point's store, and every read (model time excluded).
      const top = events.filter((e) => e.sessionId === result.sessionId);
      const fetched = top.find(
        (e): e is Extract<AgentEvent, { type: "tool.end" }> =>
          e.type === "tool.end" && e.toolName === "data__fetch",
      );
      const outputId = fetched?.outputId;
      if (!outputId) throw new Error(`${policy} ${task.id}: the fetch stored no output`);
      const stored = await env.stores.outputs.get(outputId, { sessionId: result.sessionId });
      const storeMs = (stored.completedAt ?? stored.createdAt) - stored.createdAt;
      const readMs = top
        .filter(
          (e) =>
            e.type === "tool.end" &&
            e.toolName !== "data__fetch" &&
            e.toolName !== "agent__final_report",
        )
        .reduce((sum, e) => sum + (e.type === "tool.end" ? e.durationMs : 0), 0);
      const extraction = extractionModelUse(events, result.sessionId);
      const verify = await env.stores.outputs.verify(outputId, { sessionId: result.sessionId });
      const lossless = verify.ok && stored.sha256 === workload.sha256;
      episodes.push(
        scoredEpisode(policy, task, {
          answer: record.answer,
          tokensExposed: record.toolResults.reduce((sum, text) => sum + p.count(text), 0),
          outputTokens: p.outputTokens,
          toolCalls: record.calls,
          // Extraction reads run the extraction model inside get_tool_output: its time is model time.
          wallMs: Math.max(0, storeMs + readMs - extraction.latencyMs),
          ...(policy === "spillway-extract" ? { extractionTokens: extraction.tokens } : {}),
          visibleFraction: null,
          lossless,
          failure: "the reads did not find it",
          ...(record.notes.length > 0 ? { note: record.notes.join("; ") } : {}),
        }),
      );
    }
  } finally {
    env.outputs.delete(workload.id);
  }
  return episodes;
}
