/**
 * The handle message's note on line numbers (the `lineNumberNote` switch): when the task asks
 * about a line and names none of the output's lines, the message says its own numbers are
 * places in the stored output and the output's own line numbers are in its text; otherwise the
 * message is unchanged.
 */
import { describe, expect, it } from "vitest";
import { SCOPE, SESSION, tempStore } from "../../test/helpers/temp-store.js";
import { defaultHandleMessage } from "./handle-message.js";
import { asksAboutALine, LINE_NUMBER_NOTE } from "./task-line-numbers.js";

describe("asksAboutALine", () => {
  it.each([
    "Where did the build break? Give the file:line.",
    "Which line of the config sets the port?",
    "What is the line number of the first warning?",
    "the compiler error's line no. please",
    "最初の警告は何行目ですか",
    "エラーの行番号は?",
    "错误在哪一行?",
    "报错的行号是多少",
    "第 12 行是什么",
    "第几行报错?",
    "どの行でエラーが出ましたか",
    "エラーのfile:lineを教えて",
  ])("asks: %s", (task) => {
    expect(asksAboutALine(task, 500)).toBe(true);
  });

  it.each([
    "Which pipeline step failed first?",
    "What was the deadline for the release?",
    "Is the service online?",
    "Read the headline of the report",
    "How many lines of output mention a timeout?",
    "the linear backoff's last delay",
    "銀行の口座番号は?",
    "請求書の発行番号は?",
    "実行目的を教えて",
    "银行号码是多少",
    "第一行动是什么",
    "Read line 135 and report its checksum.",
    "What do lines 40-60 say about the cache?",
  ])("does not: %s", (task) => {
    expect(asksAboutALine(task, 500)).toBe(false);
  });

  it("a line number past the output's end is not one of its lines: the note stays", () => {
    expect(asksAboutALine("Which file has the error on line 900?", 500)).toBe(true);
  });
});

describe("the handle message's line-number note", () => {
  /** A build log whose errors name source lines, far from their places in the log. */
  const BUILD_LOG = Array.from({ length: 800 }, (_, i) =>
    i === 611
      ? "error TS2322: src/billing/invoice.ts:42:7 Type 'string' is not assignable to type 'number'."
      : `[${String(i).padStart(4, "0")}] compiled module ${i} in ${10 + (i % 50)} ms`,
  ).join("\n");

  async function messageFor(taskText: string, lineNumberNote: boolean) {
    const { store } = await tempStore();
    const record = await store.put(
      { sessionId: SESSION, toolName: "build", toolArgs: "{}" },
      BUILD_LOG,
    );
    const options = { taskRecord: true, taskFocus: true, thresholdLines: true, lineNumberNote };
    const message = await defaultHandleMessage(record, store, SCOPE, 5, { ...options, taskText });
    // Each store names its output anew: compare messages without the name.
    return message.replaceAll(record.id, "out_ID");
  }

  it("says whose numbers are whose when the task asks about a line", async () => {
    const message = await messageFor("Which file and line does the type error point to?", true);
    expect(message).toContain(LINE_NUMBER_NOTE);
    // The note comes before the first numbered line, right after the message's head.
    expect(message.indexOf(LINE_NUMBER_NOTE)).toBeLessThan(message.indexOf("| "));
    expect(message).toContain("  612| error TS2322: src/billing/invoice.ts:42:7");
  });

  it("is left out with the switch off, and the message is otherwise the same", async () => {
    const task = "Which file and line does the type error point to?";
    const on = await messageFor(task, true);
    const off = await messageFor(task, false);
    expect(off).not.toContain(LINE_NUMBER_NOTE);
    expect(on.replace(`${LINE_NUMBER_NOTE}\n`, "")).toBe(off);
  });

  it("is left out when the task does not ask about a line", async () => {
    const task = "Which file has the type error?";
    expect(await messageFor(task, true)).toBe(await messageFor(task, false));
  });

  it("is left out when the task names a line of the output by number", async () => {
    const message = await messageFor("What does line 612 say?", true);
    expect(message).not.toContain(LINE_NUMBER_NOTE);
    expect(message).toContain('"line_start": 612, "line_end": 612');
  });

  it("is left out of a binary output's message, which shows no numbered lines", async () => {
    const { store } = await tempStore();
    const bytes = Buffer.from(Array.from({ length: 40_000 }, (_, i) => (i * 7) % 256));
    const record = await store.put({ sessionId: SESSION, toolName: "dump", toolArgs: "{}" }, bytes);
    expect(record.kind).toBe("binary");
    const message = await defaultHandleMessage(record, store, SCOPE, 5, {
      lineNumberNote: true,
      taskText: "Which line of the dump holds the header?",
    });
    expect(message).not.toContain(LINE_NUMBER_NOTE);
  });
});
