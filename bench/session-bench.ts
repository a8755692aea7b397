/**
 * Long-session benchmark: is the projection's cost per turn flat as the history
 * grows? One scripted session of 500 turns, tool outputs of mixed sizes (300 B to 30 KB: some
 * inline, some by handle) under a 32K window, compaction on.
 *
 *   npm run bench:session
 *   npm run bench:session -- --turns 500 --window 32768 --json
 *
 * Figures, each the median over the ten turns ending at 50, 250 and 500 (turns that compacted
 * are left out: a compaction's model call and span are its own cost):
 * - projection: the `projectionMs` the session reports for the turn (build of the model input,
 *   not counting a compaction's model call);
 * - floor: reading just that turn's new messages from the store, rendering and tokenizing
 *   them (a fresh render cache; the tokenizer's own cache is warm), measured after the
 *   session in the same run: the work no projection that counts tokens can skip;
 * - full rebuild: tokenizing every message of the history up to that turn, texts rendered
 *   already: what the projection did before it kept counts (O(history) per turn).
 * The target is projection(500) / projection(50) <= 1.5. The model is a scripted stand-in
 * (src: bench/session-run.ts), not a real model; its replies cost nothing.
 *
 * Tables go to stdout, progress to stderr; the last stdout line is one JSON object.
 */
import { rm } from "node:fs/promises";
import { type RenderContext, renderResult } from "../src/agent/render-result.js";
import { storedPlan } from "../src/agent/run-settings.js";
import { newSessionState } from "../src/agent/session-context.js";
import { sessionCounters } from "../src/agent/session-counters.js";
import { loadTokenizer } from "../src/core/tokens.js";
import type { HistoryMessage } from "../src/store/history.js";
import { createSurface } from "../src/surfaces/index.js";
import { fixed, median, ms, table, verdict } from "./report.js";
import { runLongSession } from "./session-run.js";

const TARGET = 1.5;
const WINDOW_TURNS = 10;

interface Options {
  readonly turns: number;
  readonly window: number;
  readonly json: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  let turns = 500;
  let window = 32_768;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--json") json = true;
    else if (arg === "--turns") turns = Number(argv[++i]);
    else if (arg === "--window") window = Number(argv[++i]);
    else throw new Error(`unknown argument ${arg}: use --turns N, --window TOKENS, --json`);
  }
  if (!Number.isInteger(turns) || turns < 60) throw new Error("--turns must be an integer >= 60");
  if (!Number.isInteger(window) || window < 8192) throw new Error("--window must be >= 8192");
  return { turns, window, json };
}

function time(work: () => void, repeats = 3): number {
  const runs: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const started = performance.now();
    work();
    runs.push(performance.now() - started);
  }
  return Math.min(...runs);
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const run = await runLongSession(options.turns, options.window);
  const { stores, sessionId, events } = run;
  try {
    if (run.status !== "completed") throw new Error(`the session ended ${run.status}`);
    const session = await stores.history.getSession(sessionId);
    const plan = storedPlan(session.settings, sessionId);
    const render: RenderContext = {
      sessionId,
      outputs: stores.outputs,
      surface: createSurface(plan.settings.toolOutput.surface, plan.settings.toolOutput),
      settings: plan.settings,
      state: newSessionState(),
    };
    const messages = await stores.history.messages(sessionId);
    const textOf = async (m: HistoryMessage, context: RenderContext): Promise<string> => {
      const parts: string[] = [];
      for (const part of m.parts) {
        if (part.type === "text") parts.push(part.text);
        else if (part.type === "tool-call") parts.push(`${part.toolName} ${part.argsText}`);
        else parts.push(await renderResult(context, part.result));
      }
      return parts.join("\n");
    };
    const texts: string[] = [];
    for (const m of messages) texts.push(await textOf(m, render));
    const tokenizer = await loadTokenizer(plan.settings.models[0]?.tokenizer ?? "o200k_base");
    /** Reads, renders and counts the messages of `turn`, as a projection must (fresh render cache). */
    const floorOf = async (turn: number): Promise<number> => {
      const fresh = { ...render, state: newSessionState() };
      const started = performance.now();
      for (const m of messages) if (m.turn === turn) tokenizer.count(await textOf(m, fresh));
      return performance.now() - started;
    };
    const contexts = events.flatMap((e) => (e.type === "context" ? [e] : []));
    const compactions = events.flatMap((e) => (e.type === "compaction" ? [e] : []));
    const compactedTurns = new Set(compactions.map((c) => c.turn));
    const figures = [];
    for (const end of [50, Math.round(options.turns / 2), options.turns]) {
      const turns = contexts.filter(
        (c) => c.turn > end - WINDOW_TURNS && c.turn <= end && !compactedTurns.has(c.turn),
      );
      const floor: number[] = [];
      for (const c of turns) floor.push(await floorOf(c.turn));
      const upTo = messages.filter((m) => m.turn <= end).length;
      const rebuild = time(() => {
        for (let i = 0; i < upTo; i++) tokenizer.count(texts[i]!);
      });
      figures.push({
        turn: end,
        projectionMs: median(turns.map((c) => c.projectionMs)),
        floorMs: median(floor),
        rebuildMs: rebuild,
        messages: upTo,
        tokens: median(turns.map((c) => c.tokens)),
      });
    }
    const first = figures[0]!;
    const last = figures[figures.length - 1]!;
    const ratio = last.projectionMs / first.projectionMs;
    const rebuildRatio = last.rebuildMs / first.rebuildMs;
    const counters = await sessionCounters(stores.history, sessionId);
    const hard = contexts[0]!.thresholdTokens.hard;
    const maxTokens = Math.max(...contexts.map((c) => c.tokens));
    console.log(
      table(
        `PROJECTION per turn, median of ${WINDOW_TURNS} turns (compaction turns left out); scripted stand-in model, ${options.window}-token window`,
        ["turn", "history msgs", "projection", "floor", "full rebuild", "sent tokens"],
        figures.map((f) => [
          String(f.turn),
          String(f.messages),
          `${ms(f.projectionMs)} ms`,
          `${ms(f.floorMs)} ms`,
          `${ms(f.rebuildMs)} ms`,
          String(f.tokens),
        ]),
      ),
    );
    console.log(
      `\nprojection turn ${last.turn} / turn 50: ${fixed(ratio)} (target <= ${TARGET}: ${verdict(ratio, TARGET)}); ` +
        `full rebuild: ${fixed(rebuildRatio)}`,
    );
    console.log(
      `compactions ${compactions.filter((c) => c.status === "compacted").length} (failed ${compactions.filter((c) => c.status === "failed").length}) · ` +
        `tokens saved ${counters.tokensSaved} · largest projection ${maxTokens} of hard limit ${hard} · ` +
        `truncated canonical writes ${counters.truncatedCanonicalWrites} · missing results ${counters.missingToolResults} · ` +
        `refetches ${counters.refetches} · ${run.turns} turns in ${(run.wallMs / 1000).toFixed(1)} s`,
    );
    const summary = {
      turns: run.turns,
      contextWindow: options.window,
      projectionMsTurn50: first.projectionMs,
      projectionMsTurnMid: figures[1]!.projectionMs,
      projectionMsTurnLast: last.projectionMs,
      floorMsTurn50: first.floorMs,
      floorMsTurnLast: last.floorMs,
      fullRebuildMsTurn50: first.rebuildMs,
      fullRebuildMsTurnLast: last.rebuildMs,
      fullRebuildTurnLastOverTurn50: rebuildRatio,
      compactions: counters.compactions,
      compactionFailures: counters.compactionFailures,
      truncatedCanonicalWrites: counters.truncatedCanonicalWrites,
      missingToolResults: counters.missingToolResults,
      maxProjectionTokens: maxTokens,
      hardLimitTokens: hard,
      model: "scripted stand-in (in process)",
      target: TARGET,
      pass: ratio <= TARGET,
      projectionMsTurn500OverTurn50: ratio,
    };
    console.log(JSON.stringify(summary));
    if (
      maxTokens > hard ||
      counters.missingToolResults > 0 ||
      counters.truncatedCanonicalWrites > 0
    )
      process.exitCode = 1;
  } finally {
    await stores.close();
    await rm(stores.home, { recursive: true, force: true });
  }
}

await main();
