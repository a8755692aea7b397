/**
 * The task search ranks lines by the task's terms they hold, a compound found whole once,
 * and shows lines holding the same words in the order of the output (SW-34): "the first error"
 * asks for a position, and a line's length says nothing about it.
 */
import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { asksForLast, evidenceOf, inTextOrder } from "./task-order.js";
import { leadGroup, searchForTask } from "./task-search.js";

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

async function searched(task: string, positionOrder: boolean) {
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
    expect(await searched(task, true)).toEqual(failures.slice(0, 3));
    // BM25 alone ranks the short lines first: the first failure, with a long message, is not shown.
    expect(await searched(task, false)).not.toContain(failures[0]);
  });

  it("shows the latest first when the task asks for the last", async () => {
    const { failures } = serviceLog();
    const task = "Which request did the auth service reject with its last ERROR?";
    expect(await searched(task, true)).toEqual(failures.slice(-3).reverse());
  });
});

describe("a word inside free text", () => {
  /** JSON lines: the payments service warns with "error" in its message before its first error. */
  function events(): { text: string; firstError: number; warning: number } {
    const lines = Array.from({ length: 400 }, (_, i) => {
      const svc = ["cart", "search", "payments", "mailer"][i % 4]!;
      const level = svc === "payments" && i % 40 === 10 ? "error" : "info";
      const msg =
        svc === "payments" && i === 6 ? "retrying after an error from the bank" : "request served";
      return JSON.stringify({ level, svc, trace_id: `t${1000 + i}`, msg });
    });
    return { text: lines.join("\n"), firstError: 11, warning: 7 };
  }

  it("counts half: a line whose level is the task's word comes before one whose message mentions it", async () => {
    const { text, firstError, warning } = events();
    const { store } = await tempStore();
    const record = await store.put(origin("logs__read", '{"path":"events.jsonl"}'), text);
    const task = "What is the trace_id of the first error the payments service logged?";
    const found = await searchForTask(store, record, SCOPE, task, 3, { positionOrder: true });
    const lines = found.matches.map((m) => m.line);
    expect(lines[0]).toBe(firstError);
    // The message's mention ranks after every line whose level is an error.
    expect(lines).not.toContain(warning);
    expect(lines).toHaveLength(3);
  });

  it("weighs a term held only inside quoted free text at half", () => {
    const weights = new Map([
      ["error", 4],
      ["payments", 2],
    ]);
    const words = [["error"], ["payments"]];
    expect(evidenceOf(["error", "payments"], words, weights, new Set(["error", "payments"]))).toBe(
      6,
    );
    expect(evidenceOf(["error", "payments"], words, weights, new Set(["payments"]))).toBe(4);
    expect(evidenceOf(["error", "payments"], words, weights)).toBe(6);
  });
});

describe("the task search in a script written without spaces", () => {
  it("counts each of the task's terms, not the whole sentence as one word", async () => {
    // Every tenth line reports a connection; three a failed one, the first at line 216. Line 5
    // holds one rare pair of the task's characters (最初), the failures hold many of them.
    const lines = Array.from({ length: 400 }, (_, i) =>
      i === 4
        ? "最初の起動"
        : i % 10 === 1
          ? `ノード${i}: 接続は正常です`
          : i === 215 || i === 305 || i === 355
            ? `ノード${i}: 接続に失敗しました`
            : `ノード${i}: 処理を続行`,
    );
    const { store } = await tempStore();
    const record = await store.put(
      origin("logs__read", '{"path":"logs/nodes.log"}'),
      lines.join("\n"),
    );
    const found = await searchForTask(store, record, SCOPE, "接続に失敗した最初のノードは？", 3, {
      positionOrder: true,
    });
    expect(found.matches.map((m) => m.line)).toEqual([216, 306, 356]);
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

describe("evidenceOf", () => {
  const weights = new Map([
    ["podip", 3.8],
    ["pod", 2.7],
    ["ip", 3.1],
    ["node", 3.8],
    ["9j7hs", 5.2],
  ]);
  const words = [
    ["ip", "pod", "podip"],
    ["9j7hs", "node"],
  ];

  it("counts a compound found whole once, and each part found alone", () => {
    expect(evidenceOf(["pod", "ip", "podip"], words, weights)).toBe(3.8);
    expect(evidenceOf(["pod", "ip"], words, weights)).toBeCloseTo(5.8);
    expect(evidenceOf(["node", "9j7hs"], words, weights)).toBeCloseTo(9);
    expect(evidenceOf(["9j7hs"], words, weights)).toBe(5.2);
    expect(evidenceOf(["podip", "9j7hs"], words, weights)).toBe(9);
  });

  it("weighs lines holding the same terms the same whatever their order", () => {
    expect(evidenceOf(["ip", "9j7hs", "pod"], words, weights)).toBe(
      evidenceOf(["9j7hs", "pod", "ip"], words, weights),
    );
  });
});

describe("inTextOrder", () => {
  const match = (line: number, score: number) =>
    ({ line, score }) as Parameters<typeof inTextOrder>[0][number];

  it("puts higher scores first and equal ones by position, from the end with lastFirst", () => {
    const lines = [match(40, 1), match(9, 2), match(12, 1), match(3, 1)];
    expect(inTextOrder(lines, false).map((m) => m.line)).toEqual([9, 3, 12, 40]);
    expect(inTextOrder(lines, true).map((m) => m.line)).toEqual([9, 40, 12, 3]);
  });
});

describe("leadGroup", () => {
  it("leads with a word the search splits into parts, not with a plain word", () => {
    const group = leadGroup(["req-4hpi75", "memory"]);
    expect(group("req=req-4hpi75 order=ord-1")).toBe(0);
    expect(group("memory: 512Mi")).toBe(2);
  });
});
