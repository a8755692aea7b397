/**
 * With `positionOrder`, searches rank lines by the words they hold and keep lines holding the
 * same words in the order of the output (SW-55): "the first error" asks for a position, and a
 * line's length says nothing about it. Off, they rank by BM25.
 */
import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { createGetToolOutputSurface } from "./get-tool-output.js";
import { asksForLast, positionRanking, searchOrderFor } from "./position-order.js";
import type { SurfaceContext } from "./surface.js";
import { searchForTask } from "./task-search.js";

/** 600 log lines; the auth service fails on 12 of them, the first and last with long messages. */
function serviceLog(): { text: string; failures: number[] } {
  const failures: number[] = [];
  const lines = Array.from({ length: 600 }, (_, i) => {
    const service = ["billing", "search", "mailer", "auth"][i % 4]!;
    if (service === "auth" && i % 48 === 3) {
      failures.push(i + 1);
      const detail =
        failures.length === 1 || i > 560
          ? " after retrying the token refresh five times with backoff"
          : "";
      return `12:${String(i % 60).padStart(2, "0")} ${service} ERROR request ${7000 + i} rejected${detail}`;
    }
    return `12:${String(i % 60).padStart(2, "0")} ${service} INFO request ${7000 + i} served`;
  });
  return { text: lines.join("\n"), failures };
}

async function taskSearched(task: string, positionOrder: boolean) {
  const { store } = await tempStore();
  const record = await store.put(
    origin("logs__read", '{"path":"logs/services.log"}'),
    serviceLog().text,
  );
  const found = await searchForTask(store, record, SCOPE, task, 3, { positionOrder });
  return found.matches.map((m) => m.line);
}

describe("the task search's order of equal lines", () => {
  it("shows the earliest of the lines holding the task's words first", async () => {
    const { failures } = serviceLog();
    const task = "Which request did the auth service reject with the first ERROR?";
    expect(await taskSearched(task, true)).toEqual(failures.slice(0, 3));
    // BM25 alone ranks the short lines first: the first failure, with a long message, is not shown.
    expect(await taskSearched(task, false)).not.toContain(failures[0]);
  });

  it("shows the latest first when the task asks for the last", async () => {
    const { failures } = serviceLog();
    const task = "Which request did the auth service reject with its last ERROR?";
    expect(await taskSearched(task, true)).toEqual(failures.slice(-3).reverse());
  });
});

/** A log of 300 lines, 30 of them timeouts: the early ones long, the late ones short. */
async function modelSearchSetup() {
  const { store: outputs } = await tempStore();
  const timeouts: number[] = [];
  const log = Array.from({ length: 300 }, (_, i) => {
    if (i % 10 !== 5) return `t=${i} INFO job ${i} finished`;
    timeouts.push(i + 1);
    return i < 150
      ? `t=${i} ERROR job ${i} timeout while waiting for the upstream cache to answer its read`
      : `t=${i} ERROR job ${i} timeout`;
  });
  const output = await outputs.put(origin("shell__run"), `${log.join("\n")}\n`);
  const surface = createGetToolOutputSurface({ synopsisLines: 5 });
  const call = (args: Record<string, unknown>, extra: Partial<SurfaceContext> = {}) =>
    surface.execute(
      "get_tool_output",
      { id: output.id, mode: "search", max_results: 3, ...args },
      {
        outputs,
        scope: SCOPE,
        maxChars: 100_000,
        tokenizer: "o200k_base",
        outputOfToolCall: async () => undefined,
        ...extra,
      },
    );
  const linesOf = (text: string) => [...text.matchAll(/^(\d+): /gm)].map((m) => Number(m[1]));
  return { timeouts, call, linesOf };
}

describe("the model's search with positionOrder", () => {
  it("shows the first of many equal lines first, however long it is", async () => {
    const { timeouts, call, linesOf } = await modelSearchSetup();
    const answer = await call({ query: "timeout" }, { positionOrder: true });
    expect(answer.isError).toBe(false);
    expect(linesOf(answer.text)).toEqual(timeouts.slice(0, 3));
    expect(answer.text).not.toContain("latest first");
  });

  it("shows the latest first when the session's task asks for the last, and says so", async () => {
    const { timeouts, call, linesOf } = await modelSearchSetup();
    const last = { positionOrder: true, taskText: "Which job hit the last timeout in the log?" };
    const answer = await call({ query: "timeout" }, last);
    expect(linesOf(answer.text)).toEqual(timeouts.slice(-3).reverse());
    expect(answer.text).toContain("showing the best 3 (equal ones latest first) · LINE: text]");
    const session = await call({ id: undefined, query: "timeout" }, last);
    expect(linesOf(session.text)).toEqual(timeouts.slice(-3).reverse());
    expect(session.text).toContain("(equal ones latest first)");
  });

  it("ranks by BM25 without it: the shortest equal lines first", async () => {
    const { timeouts, call, linesOf } = await modelSearchSetup();
    const shown = linesOf((await call({ query: "timeout" })).text);
    expect(shown).toHaveLength(3);
    for (const line of shown) expect(line).toBeGreaterThan(150);
    expect(shown).not.toEqual(timeouts.slice(0, 3));
  });
});

describe("asksForLast", () => {
  it.each([
    ["What was the last error before the restart?", true],
    ["Show the latest deployment id", true],
    ["Which build was the most recent one to fail?", true],
    ["Find the bottom-most lost shipment", true],
    ["最後のエラーは？", true],
    ["Which request failed first?", false],
    ["What is the customer's lastName field?", false],
    ["Which job lasted longest?", false],
  ])("%s → %s", (task, expected) => {
    expect(asksForLast(task)).toBe(expected);
  });
});

describe("searchOrderFor", () => {
  it("asks for coverage from the end the task names, and nothing without the switch", () => {
    expect(positionRanking("the first refund")).toEqual({
      ranking: "coverage",
      latestFirst: false,
    });
    expect(searchOrderFor({ positionOrder: true, taskText: "the latest deploy" })).toEqual({
      ranking: "coverage",
      latestFirst: true,
    });
    expect(searchOrderFor({ positionOrder: false, taskText: "the latest deploy" })).toEqual({});
    expect(searchOrderFor({ taskText: "the latest deploy" })).toEqual({});
  });
});
