import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { createGetToolOutputSurface } from "./get-tool-output.js";
import { defaultHandleMessage, withoutAskedExamples } from "./handle-message.js";
import { taskLines, taskTerms } from "./task-terms.js";

describe("taskTerms", () => {
  it("keeps identifiers and quoted strings, in order, and leaves plain words out", () => {
    expect(
      taskTerms(
        'Call data__fetch with output="doc-25d83a78c0". What is the refund reference for event evt_ntngab003? Quote "disk full" exactly.',
      ),
    ).toEqual(["data__fetch", "doc-25d83a78c0", "evt_ntngab003", "disk full"]);
    expect(taskTerms("Find the first error in app.log and explain it.")).toEqual([]);
  });
});

describe("taskLines", () => {
  it("reads a line or a range named by number, inside the output only", () => {
    expect(taskLines("Read line 135 and report its checksum.", 300)).toEqual({
      start: 135,
      end: 135,
    });
    expect(taskLines("Show lines 40-60, then lines 7 to 9.", 300)).toEqual({ start: 40, end: 60 });
    expect(taskLines("Show lines 7 to 9.", 300)).toEqual({ start: 7, end: 9 });
    expect(taskLines("Read line 135.", 100)).toBeUndefined();
    expect(taskLines("Read lines 60-40.", 100)).toBeUndefined();
    expect(taskLines("Read the pipeline 3 log.", 100)).toBeUndefined();
    expect(taskLines("Find the first error.", 100)).toBeUndefined();
  });
});

describe("the handle message's grep example", () => {
  async function setup() {
    const { store } = await tempStore();
    const lines = Array.from({ length: 3000 }, (_, i) => `INFO event=evt_${i}x status=ok`);
    lines[2100] = "WARN event=evt_ntngab003 refund_ref=ANS-34Z5AQ";
    const record = await store.put(
      origin("data__fetch", '{"output":"doc-25d83a78c0"}'),
      lines.join("\n"),
    );
    return { store, record };
  }

  it("greps for what the task names when the output holds it, passing over terms it does not hold", async () => {
    const { store, record } = await setup();
    const text = await defaultHandleMessage(
      record,
      store,
      SCOPE,
      5,
      'Call data__fetch with output="doc-25d83a78c0". What is the refund reference for event evt_ntngab003?',
    );
    expect(text).toContain(
      `get_tool_output(id="${record.id}", mode="grep", pattern="evt_ntngab003", context=2)   the lines with "evt_ntngab003", which your task names and this output holds`,
    );
    expect(text).not.toContain('pattern="ERROR"');
    // Looking is not reading: the output's retrieval count stays 0.
    expect((await store.get(record.id, SCOPE)).readCount).toBe(0);
  });

  it("with no term of the task in the output, greps for ERROR only where the output holds one", async () => {
    const { store, record } = await setup();
    const absent = await defaultHandleMessage(
      record,
      store,
      SCOPE,
      5,
      "Which refund has evt_zzzz999?",
    );
    // No ERROR in this output: no example that finds nothing; reading by number leads.
    expect(absent).not.toContain('pattern="ERROR"');
    const calls = absent.split("\n").filter((line) => line.includes("get_tool_output("));
    expect(calls[0]).toContain('slice={"line_start": 1, "line_end": 50}');
    expect(calls[1]).toContain('mode="grep", pattern="what to find", context=2)');
    const withError = await store.put(
      origin("data__fetch", "{}"),
      ["INFO start", "ERROR disk full", "INFO end"].join("\n").repeat(2000),
    );
    const none = await defaultHandleMessage(withError, store, SCOPE, 5);
    expect(none).toContain('mode="grep", pattern="ERROR", context=2)');
    expect((await store.get(withError.id, SCOPE)).readCount).toBe(0);
  });

  it("offers first the lines a task names by number, when the output has them", async () => {
    const { store, record } = await setup();
    const text = await defaultHandleMessage(
      record,
      store,
      SCOPE,
      5,
      "Read line 2101 and report the refund_ref on it.",
    );
    const first = text.split("\n").find((line) => line.includes("get_tool_output("));
    expect(first).toBe(
      `  get_tool_output(id="${record.id}", mode="slice", slice={"line_start": 2101, "line_end": 2101})   line 2101, which your task names`,
    );
    // Following it reads the line the task asked for.
    const surface = createGetToolOutputSurface({ synopsisLines: 5 });
    const read = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "slice", slice: { line_start: 2101, line_end: 2101 } },
      contextOf(store),
    );
    expect(read.text).toContain("refund_ref=ANS-34Z5AQ");
  });

  it("in JSON, offers first the query for the whole object whose key holds the term (instead of a grep for it), and the query works", async () => {
    const { store } = await tempStore();
    const orders = Array.from({ length: 80 }, (_, i) => ({
      id: i === 55 ? "ord_89309srrp" : `ord_${i}aaaa`,
      payment: { method: "card", auth: { network: "mc", code: i === 55 ? "ANS-7Q2" : `c${i}` } },
    }));
    const record = await store.put(
      origin("data__fetch", "{}"),
      JSON.stringify({ object: "list", orders }, null, 2),
    );
    const text = await defaultHandleMessage(
      record,
      store,
      SCOPE,
      5,
      "What is the payment.auth.code of order ord_89309srrp?",
    );
    const query = "$..[?(@.id=='ord_89309srrp')]";
    const first = text.split("Read it with:\n")[1]!.split("\n")[0]!;
    expect(first).toBe(
      `  get_tool_output(id="${record.id}", mode="json", json_query="${query}")   the whole object whose id is "ord_89309srrp", which your task names`,
    );
    // It replaces the grep for the term, whose context lines stop short of nested fields.
    expect(text).not.toContain('pattern="ord_89309srrp"');
    const answer = await createGetToolOutputSurface({ synopsisLines: 5 }).execute(
      "get_tool_output",
      { id: record.id, mode: "json", json_query: query },
      contextOf(store),
    );
    expect(answer.isError).toBe(false);
    expect(answer.text).toContain("ANS-7Q2");
    expect(answer.text).not.toContain("c54");
  });
});

/** A get_tool_output call's context over `store`, with the session's task when given. */
/** Stores `orders` as pretty-printed JSON (`{ "orders": [...] }`), the output of data__fetch. */
const putOrders = (store: Awaited<ReturnType<typeof tempStore>>["store"], orders: unknown[]) =>
  store.put(origin("data__fetch", "{}"), JSON.stringify({ orders }, null, 2));

const contextOf = (store: Awaited<ReturnType<typeof tempStore>>["store"], taskText?: string) => ({
  outputs: store,
  scope: SCOPE,
  maxChars: 100_000,
  tokenizer: "o200k_base" as const,
  outputOfToolCall: async () => undefined,
  ...(taskText ? { taskText } : {}),
});

describe("a search that finds nothing points to what the task names", () => {
  const surface = createGetToolOutputSurface({ synopsisLines: 5 });

  it("in JSON: the lines with the term, read there, with the object holding them and its nested value", async () => {
    const { store } = await tempStore();
    const orders = Array.from({ length: 40 }, (_, i) => ({
      id: i === 25 ? "ord_89309srrp" : `ord_${i}aaaa`,
      payment: { auth: { code: i === 25 ? "ANS-7Q2" : `c${i}` } },
    }));
    const record = await putOrders(store, orders);
    const task =
      "What is the payment authorization code (payment.auth.code) of order ord_89309srrp?";
    const answer = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "grep", pattern: "payment.auth.code" },
      contextOf(store, task),
    );
    expect(answer.text).toContain(
      'Repeating this call returns the same. Your task names "ord_89309srrp": its lines follow. Try a broader search',
    );
    expect(answer.text).toContain(
      `[The lines with "ord_89309srrp", which your task names, read for you:]\n[${record.id} grep "ord_89309srrp": 1 matching line`,
    );
    expect(answer.text).toMatch(/\[record: JSON object, lines \d+-\d+\][\s\S]*"code": "ANS-7Q2"/);
    expect(answer.text).not.toContain('"c24"');
  });

  it("in JSON, a term on many lines: the call that reads the object, not the lines", async () => {
    const { store } = await tempStore();
    const orders = Array.from({ length: 40 }, (_, i) => ({
      id: i === 25 ? "ord_89309srrp" : `ord_${i}aaaa`,
      ref: i > 25 && i % 3 === 0 ? "ord_89309srrp" : "none",
      payment: { auth: { code: i === 25 ? "ANS-7Q2" : `c${i}` } },
    }));
    const record = await putOrders(store, orders);
    const task = "What is the code of order ord_89309srrp?";
    const answer = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "grep", pattern: "payment.auth.code" },
      contextOf(store, task),
    );
    const query = "$..[?(@.id=='ord_89309srrp')]";
    expect(answer.text).toContain(
      `Your task names "ord_89309srrp", which this output holds: read the whole object whose id is "ord_89309srrp", get_tool_output(id="${record.id}", mode="json", json_query="${query}"). Try a broader search`,
    );
    expect(answer.text).not.toContain("read for you");
    const followed = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "json", json_query: query },
      contextOf(store, task),
    );
    expect(followed.text).toContain("ANS-7Q2");
  });

  it("in text: the lines with the term; nothing when the term was what found nothing, or there is no task", async () => {
    const { store } = await tempStore();
    const lines = Array.from({ length: 500 }, (_, i) => `INFO event=evt_${i}x status=ok`);
    lines[300] = "WARN event=evt_ntngab003 refund_ref=ANS-34Z5AQ";
    const record = await store.put(origin("data__fetch", "{}"), lines.join("\n"));
    const task = "What is the refund reference recorded for event evt_ntngab003?";
    const grep = (pattern: string, taskText?: string) =>
      surface.execute(
        "get_tool_output",
        { id: record.id, mode: "grep", pattern },
        contextOf(store, taskText),
      );
    const answer = (await grep("refund reference", task)).text;
    expect(answer).toContain('Your task names "evt_ntngab003": its lines follow.');
    expect(answer).toContain(
      "299- INFO event=evt_298x status=ok\n300- INFO event=evt_299x status=ok\n301:12: WARN event=evt_ntngab003 refund_ref=ANS-34Z5AQ\n302- INFO",
    );
    expect(answer).not.toContain("[record:");
    expect((await grep("refund reference")).text).not.toContain("Your task names");
    const absentTerm = await grep("refund reference", "Which refund has evt_zzzz999?");
    expect(absentTerm.text).toContain("nothing found");
    expect(absentTerm.text).not.toContain("Your task names");
  });
});

describe("the JSON outline in the handle message", () => {
  it("leaves out the first value of a field the task names by its key, and keeps the others", () => {
    const rows = [
      "Shape (JSON outline):",
      '          .id: string, first value "ord_c8txprcyx"',
      '              .code: string, first value "fg1raa"',
      '          .note: string, first value "refund_ref ANS-Q36MHM issued after dispu…" (in 80 of 86)',
      '      .object: string "list"',
    ];
    expect(
      withoutAskedExamples(
        rows,
        "What is the payment authorization code (payment.auth.code) of order ord_89309srrp?",
      ),
    ).toEqual([
      rows[0],
      rows[1],
      "              .code: string, values differ per element (read the one your task names)",
      rows[3],
      rows[4],
    ]);
    expect(withoutAskedExamples(rows, "What is the NOTE of ord_1?")[3]).toBe(
      "          .note: string, values differ per element (read the one your task names) (in 80 of 86)",
    );
  });

  it("is applied by the handle message when it has the task", async () => {
    const { store } = await tempStore();
    const orders = Array.from({ length: 10 }, (_, i) => ({ id: `ord_${i}x`, code: `c${i}x` }));
    const record = await putOrders(store, orders);
    const task = "What is the code of order ord_7x?";
    const text = await defaultHandleMessage(record, store, SCOPE, 5, task);
    expect(text).toContain(
      ".code: string, values differ per element (read the one your task names)",
    );
    expect(text).not.toContain('"c0x"');
    expect(await defaultHandleMessage(record, store, SCOPE, 5)).toContain(
      '.code: string, first value "c0x"',
    );
  });
});
