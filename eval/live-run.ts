/**
 * The live evaluation: one real model plays spillway (through runAgent, the product) and the
 * peer policies (through the AI SDK loop with each policy's tools really offered), on the same
 * tasks, model against model. Each task is scored from the run's final report; tokens are the
 * model's own counts of every request's input. For the harness's tests, a scripted stand-in
 * (the blind agents behind the scripted model server) can take the model's place, and the
 * report then says so.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AgentEvent } from "../src/agent/events.js";
import { runAgent } from "../src/agent/run-agent.js";
import { planRun, storedPlan } from "../src/agent/run-settings.js";
import { historyLines } from "../src/cli/session-render.js";
import type { CliSettings } from "../src/config/index.js";
import { loadTokenizer } from "../src/core/tokens.js";
import { languageModelFor } from "../src/providers/models.js";
import type { SpillwayStores } from "../src/store/sqlite-history-store.js";
import type { Responder } from "../src/testing/index.js";
import { type Episode, type PolicyName, scoredEpisode } from "./episode.js";
import { liveLoop } from "./live-loop.js";
import { type PeerPolicy, peerEnv } from "./peers.js";
import { type Prepared, prepare, promptOf } from "./prepared.js";
import { seedOf } from "./run-eval.js";
import { startSpillwayEnv } from "./spillway-env.js";
import { generateWorkload, type Kind, type Position, type SizeLabel } from "./workload.js";

/** The policies eval:live plays by default: spillway and the peers the issue names. */
export const LIVE_POLICIES: readonly PolicyName[] = [
  "spillway",
  "codex-head-tail",
  "spill-to-file-shell",
  "paging-4000",
];

export interface LiveTaskSpec {
  readonly kind: Kind;
  readonly size: SizeLabel;
  readonly position: Position;
}

/**
 * The live subset: 50 KB outputs (over spillway's inline limit and its async threshold, over
 * Codex's 10 KiB cut, over Claude Code's 50,000-character spill threshold, and 13 pages of
 * paging), needles where a cut loses them and where a reader must read on purpose.
 */
export const LIVE_TASKS: readonly LiveTaskSpec[] = [
  { kind: "log", size: "50KB", position: "middle" },
  { kind: "json-pretty", size: "50KB", position: "nested-json" },
  { kind: "csv", size: "50KB", position: "75%" },
  { kind: "log", size: "50KB", position: "end-error" },
  { kind: "markdown", size: "50KB", position: "regex-only" },
  { kind: "json-min", size: "50KB", position: "25%" },
];

/**
 * The context window eval:live gives every policy by default (tokens). On 2 cores a 1.5B model
 * prefills about 80 tokens a second, so a peer that fills 16,384 tokens spends over 3 minutes on
 * one task; 8,192 is what a local user on such a machine runs, and keeps the subset in budget.
 */
export const LIVE_CONTEXT_WINDOW = 8192;

/** The first this many of LIVE_TASKS are the default subset (sized to the time budget). */
export const LIVE_DEFAULT_TASKS = 4;

/**
 * Turns a session may take, the same for every policy (a small model may fetch the same output
 * again and again); paging's continuation calls do not count (seed 002), so it gets more, and
 * the context window ends it first.
 */
export const LIVE_MAX_TURNS = 6;
export const LIVE_PAGING_MAX_TURNS = 20;

export interface LiveEvalOptions {
  /** The model ref playing every agent, as `spillway run --model` takes it. */
  readonly model: string;
  /** What the report calls the model: name, size, quantization. */
  readonly modelLabel?: string;
  readonly out: string;
  readonly policies?: readonly PolicyName[];
  readonly tasks?: readonly LiveTaskSpec[];
  /** Settings for spillway's sessions (e.g. `{ async: false }` for a before/after). */
  readonly spillwaySettings?: CliSettings;
  readonly seed?: number;
  /**
   * The context window every policy plays in (tokens), the same for all; unset, the model's
   * configured window (16,384 for a local model).
   */
  readonly contextWindow?: number;
  /**
   * For tests of this harness only: the scripted model server plays the agent (`model` must
   * then be the eval env's model ref), with the responder given for each policy; the report
   * says "Scripted stand-in, not a real model".
   */
  readonly scriptedStandIn?: (policy: PolicyName) => Responder;
  readonly log?: (line: string) => void;
  /** Finer progress: every model call and tool call. */
  readonly progress?: (line: string) => void;
  /** Called after every episode (progress, partial saves). */
  readonly onEpisode?: (episode: Episode, all: readonly Episode[]) => Promise<void> | void;
}

/** Every tool result of a session as the model was shown it (rendered again from history). */
async function shownToModel(stores: SpillwayStores, sessionId: string): Promise<string> {
  const session = await stores.history.getSession(sessionId);
  const toolMessages = (await stores.history.messages(sessionId)).filter((m) => m.role === "tool");
  const view = {
    stores,
    session,
    plan: storedPlan(session.settings, sessionId),
    toolCalls: await stores.history.toolCalls(sessionId),
    children: new Map(),
    full: true,
  };
  return (await historyLines(view, toolMessages)).join("\n");
}

const RETRIEVALS = new Set([
  "get_tool_output",
  "wait_for_tool_output",
  "tool_output",
  "get_continuation",
]);

export interface LiveRun {
  readonly episodes: Episode[];
  readonly seconds: number;
}

/**
 * Plays the live subset: every task under every policy with the same model.
 *
 * @example
 * const { episodes } = await runLiveEval({ model: "local/qwen2.5-coder-1.5b-instruct-q4_k_m", out: "eval/report-live" });
 */
export async function runLiveEval(options: LiveEvalOptions): Promise<LiveRun> {
  const started = performance.now();
  const policies = options.policies ?? LIVE_POLICIES;
  const specs = options.tasks ?? LIVE_TASKS;
  const seed = options.seed ?? 1;
  let current: Responder = () => ({ text: "unused: a real model answers" });
  const env = await startSpillwayEnv((request, context) => current(request, context));
  const cwd = options.scriptedStandIn ? env.dir : process.cwd();
  const tokenizer = await loadTokenizer("o200k_base");
  const episodes: Episode[] = [];
  const prepared = new Map<string, Prepared>();
  try {
    const window = options.contextWindow ? { contextWindow: options.contextWindow } : {};
    const plan = await planRun({
      agent: env.agentPath,
      cli: { models: options.model, ...window },
      cwd,
    });
    const model = languageModelFor(plan.settings.models[0]!);
    for (const spec of specs) {
      const key = `${spec.kind}/${spec.size}`;
      let p = prepared.get(key);
      if (!p) {
        const workload = generateWorkload(spec.kind, spec.size, seedOf(seed, spec.kind, spec.size));
        p = await prepare(workload, (t) => tokenizer.count(t));
        prepared.set(key, p);
      }
      const task = p.workload.tasks.find((t) => t.position === spec.position);
      if (!task) throw new Error(`eval:live: ${key} has no ${spec.position} needle`);
      const prompt = promptOf(task, p.docId);
      for (const policy of policies) {
        if (options.scriptedStandIn) current = options.scriptedStandIn(policy);
        const t0 = performance.now();
        let episode: Episode;
        if (policy === "spillway" || policy === "spillway-extract") {
          env.outputs.set(p.docId, p.workload.text);
          const events: AgentEvent[] = [];
          const result = await runAgent({
            agent: env.agentPath,
            prompt,
            model: options.model,
            settings: { maxTurns: LIVE_MAX_TURNS, ...window, ...options.spillwaySettings },
            stores: env.stores,
            cwd,
            onEvent: (event) => {
              events.push(event);
              if (event.type === "model.call")
                options.progress?.(
                  `  ${policy} call: ${event.inputTokens} in, ${event.outputTokens} out, ${(event.latencyMs / 1000).toFixed(0)} s`,
                );
              if (event.type === "tool.end" && event.depth === 0)
                options.progress?.(`  ${policy} tool: ${event.toolName}`);
            },
          });
          if (result.status === "failed" && result.error?.startsWith("MODEL_UNAVAILABLE"))
            throw new Error(
              `eval:live: the model ${options.model} did not answer. ${result.error}`,
            );
          const top = events.filter((e) => e.sessionId === result.sessionId);
          const calls = top.flatMap((e) => (e.type === "tool.end" ? [e.toolName] : []));
          const modelCalls = top.filter(
            (e): e is Extract<AgentEvent, { type: "model.call" }> => e.type === "model.call",
          );
          const shown = await shownToModel(env.stores, result.sessionId);
          episode = scoredEpisode(policy, task, {
            report: result.report,
            retrieved: result.report !== null && calls.some((c) => RETRIEVALS.has(c)),
            tokensSent: modelCalls.reduce((sum, e) => sum + e.inputTokens, 0),
            requests: modelCalls.length,
            tokensExposed: p.count(shown),
            outputTokens: p.outputTokens,
            toolCalls: calls.filter((c) => RETRIEVALS.has(c)).length,
            wallMs: performance.now() - t0,
            visibleFraction: null,
            lossless: null,
            failure:
              result.status === "completed" ? null : `session ${result.status}: ${result.error}`,
            shown,
          });
        } else {
          const peer = await peerEnv(policy as PeerPolicy, p, join(env.dir, "spill"));
          const run = await liveLoop(model, peer, {
            prompt,
            maxTurns: policy === "paging-4000" ? LIVE_PAGING_MAX_TURNS : LIVE_MAX_TURNS,
            requireToolCalls: plan.settings.textReplies === "none",
            onStep: (step) =>
              options.progress?.(
                `  ${policy} call: ${step.inputTokens} in, ${step.outputTokens} out → ${step.calls.join(", ") || "text"}`,
              ),
          });
          if (run.failure?.includes("MODEL_UNAVAILABLE"))
            throw new Error(`eval:live: the model ${options.model} did not answer. ${run.failure}`);
          episode = scoredEpisode(policy, task, {
            report: run.report,
            retrieved: run.retrieved,
            tokensSent: run.inputTokens,
            requests: run.requests,
            tokensExposed: run.shown.reduce((sum, text) => sum + p.count(text), 0),
            outputTokens: p.outputTokens,
            toolCalls: Math.max(0, run.calls.length - 1),
            wallMs: performance.now() - t0,
            visibleFraction: null,
            lossless: null,
            failure: run.failure,
            shown: run.shown.join("\n"),
          });
        }
        episodes.push(episode);
        options.log?.(
          `${policy.padEnd(20)} ${task.id.padEnd(24)} ${episode.correct ? "right" : "wrong"}${episode.invented ? " (invented)" : ""} · ` +
            `${episode.requests} calls, ${episode.tokensSent} tokens · ${((performance.now() - t0) / 1000).toFixed(0)} s` +
            (episode.correct
              ? ""
              : ` · ${(episode.report ?? episode.failure ?? "").slice(0, 100).replace(/\s+/g, " ")}`),
        );
        await options.onEpisode?.(episode, episodes);
      }
    }
  } finally {
    await env.close();
  }
  await mkdir(options.out, { recursive: true });
  return { episodes, seconds: (performance.now() - started) / 1000 };
}

/** Saves the episodes (every report included) beside the report. */
export async function saveEpisodes(out: string, episodes: readonly Episode[]): Promise<void> {
  await mkdir(out, { recursive: true });
  await writeFile(join(out, "episodes.json"), `${JSON.stringify(episodes, null, 2)}\n`);
}
