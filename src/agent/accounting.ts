import type { ModelTarget } from "../providers/models.js";

/** Totals of one scope (a session alone, its children, or both). */
export interface UsageTotals {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Null when some model call had no configured pricing. */
  costUsd: number | null;
  toolCalls: number;
  toolMs: number;
  storedBytes: number;
}

export interface UsageReport {
  /** This session's own model and tool calls. */
  readonly own: UsageTotals;
  /** Everything its sub-agents (and later, extraction) spent. */
  readonly children: UsageTotals;
  /** own + children. */
  readonly total: UsageTotals;
  /** Per model ref: which models served the calls, and what they cost. */
  readonly byModel: Record<
    string,
    { calls: number; inputTokens: number; outputTokens: number; costUsd: number | null }
  >;
}

export function emptyTotals(): UsageTotals {
  return {
    modelCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    toolCalls: 0,
    toolMs: 0,
    storedBytes: 0,
  };
}

function addCost(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

export function addTotals(into: UsageTotals, more: UsageTotals): void {
  into.modelCalls += more.modelCalls;
  into.inputTokens += more.inputTokens;
  into.outputTokens += more.outputTokens;
  into.costUsd = addCost(into.costUsd, more.costUsd);
  into.toolCalls += more.toolCalls;
  into.toolMs += more.toolMs;
  into.storedBytes += more.storedBytes;
}

/** The cost of one call from the target's pricing, or null when it has none. */
export function costOf(
  target: ModelTarget,
  inputTokens: number,
  outputTokens: number,
): number | null {
  if (!target.pricing) return null;
  return (
    (inputTokens * target.pricing.inputPerMTok + outputTokens * target.pricing.outputPerMTok) /
    1_000_000
  );
}

/** Tokens, cost and durations of a session, with its sub-agents' totals joined in. */
export class Accounting {
  private readonly own = emptyTotals();
  private readonly children = emptyTotals();
  private readonly byModel: UsageReport["byModel"] = {};

  constructor(previous?: UsageReport | null) {
    if (!previous) return;
    addTotals(this.own, previous.own);
    addTotals(this.children, previous.children);
    for (const [ref, usage] of Object.entries(previous.byModel)) this.byModel[ref] = { ...usage };
  }

  addModelCall(target: ModelTarget, inputTokens: number, outputTokens: number): number | null {
    return this.addCall(this.own, target, inputTokens, outputTokens);
  }

  /** One model call into `totals` and the per-model table; returns its cost. */
  private addCall(
    totals: UsageTotals,
    target: ModelTarget,
    inputTokens: number,
    outputTokens: number,
  ): number | null {
    const cost = costOf(target, inputTokens, outputTokens);
    addTotals(totals, {
      ...emptyTotals(),
      modelCalls: 1,
      inputTokens,
      outputTokens,
      costUsd: cost,
    });
    const entry = this.modelEntry(target.ref);
    entry.calls++;
    entry.inputTokens += inputTokens;
    entry.outputTokens += outputTokens;
    entry.costUsd = addCost(entry.costUsd, cost);
    return cost;
  }

  private modelEntry(ref: string): UsageReport["byModel"][string] {
    let entry = this.byModel[ref];
    if (!entry) {
      entry = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
      this.byModel[ref] = entry;
    }
    return entry;
  }

  addToolCall(durationMs: number, storedBytes: number): void {
    addTotals(this.own, { ...emptyTotals(), toolCalls: 1, toolMs: durationMs, storedBytes });
  }

  /** An extraction model call made for this session: counted with the children, like sub-agents. */
  addChildModelCall(target: ModelTarget, inputTokens: number, outputTokens: number): void {
    this.addCall(this.children, target, inputTokens, outputTokens);
  }

  /** Joins a sub-agent's whole report into this session's totals. */
  addChild(child: UsageReport): void {
    addTotals(this.children, child.total);
    for (const [ref, usage] of Object.entries(child.byModel)) {
      const entry = this.modelEntry(ref);
      entry.calls += usage.calls;
      entry.inputTokens += usage.inputTokens;
      entry.outputTokens += usage.outputTokens;
      entry.costUsd = addCost(entry.costUsd, usage.costUsd);
    }
  }

  report(): UsageReport {
    const total = emptyTotals();
    addTotals(total, this.own);
    addTotals(total, this.children);
    return {
      own: { ...this.own },
      children: { ...this.children },
      total,
      byModel: structuredClone(this.byModel),
    };
  }
}
