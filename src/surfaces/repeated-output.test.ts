/**
 * A call that returns, byte for byte, what an earlier identical call of the session returned is
 * told so instead of being shown the same handle message again (SW-35): the repeat note names
 * both ids and keeps the reads; any difference (the bytes, the arguments, the session) gets the
 * whole message.
 */
import { describe, expect, it } from "vitest";
import { SCOPE, SESSION, tempStore } from "../../test/helpers/temp-store.js";
import { defaultHandleMessage } from "./handle-message.js";
import { canonicalArguments, earlierSameOutput } from "./repeated-output.js";

const log = (marker: string) =>
  Array.from(
    { length: 400 },
    (_, i) => `2026-03-14T08:${String(i % 60).padStart(2, "0")}:00Z INFO job ${i} ${marker}`,
  ).join("\n");

const TASK = { taskText: "which job logged the boot marker?", repeatNote: true } as const;

async function twoCalls(
  second: { args?: string; text?: string; sessionId?: string } = {},
  first: { args?: string; text?: string } = {},
) {
  const { store } = await tempStore();
  const tool = "fs__read_text_file";
  const earlier = await store.put(
    {
      sessionId: SESSION,
      toolName: tool,
      toolArgs: first.args ?? '{"path":"a.log","tail":10}',
      createdAt: 1_000,
    },
    first.text ?? log("ok"),
  );
  const later = await store.put(
    {
      sessionId: second.sessionId ?? SESSION,
      toolName: tool,
      toolArgs: second.args ?? '{"tail":10,"path":"a.log"}',
      createdAt: 2_000,
    },
    second.text ?? log("ok"),
  );
  return { store, earlier, later };
}

describe("a call that returns what an earlier identical call returned", () => {
  it("is told so, with both ids and the reads, not the search lines and synopsis again", async () => {
    const { store, earlier, later } = await twoCalls();
    const first = await defaultHandleMessage(earlier, store, SCOPE, 5, TASK);
    const again = await defaultHandleMessage(later, store, SCOPE, 5, TASK);
    expect(first).toContain("First lines:");
    expect(again.split("\n")[0]).toBe(
      `[spillway] fs__read_text_file returned the same output as for an earlier call, byte for byte: it is stored whole again as ${later.id}, the same as ${earlier.id}.`,
    );
    // As the first message does (SW-38), it never says the output's lines are not shown.
    expect(again.split("\n")[1]).toBe(
      "Calling the tool again brings back only this message; get_tool_output reads the output's lines.",
    );
    expect(again).not.toContain("NOT in");
    expect(again).toContain(`get_tool_output(id="${later.id}", mode="search", query=`);
    expect(again).not.toContain("First lines:");
    expect(again).not.toContain("found these lines");
    expect(again.length).toBeLessThan(first.length);
  });

  it("gets the whole message when the bytes differ (the file changed)", async () => {
    const { store, later } = await twoCalls({ text: log("changed") });
    const message = await defaultHandleMessage(later, store, SCOPE, 5, TASK);
    expect(message).toMatch(/^\[spillway\] The output of fs__read_text_file is stored whole/);
    expect(message).toContain("First lines:");
  });

  it("gets the whole message when the arguments differ", async () => {
    const { store, later } = await twoCalls({ args: '{"path":"a.log","tail":20}' });
    const message = await defaultHandleMessage(later, store, SCOPE, 5, TASK);
    expect(message).not.toContain("the same output as for an earlier call");
  });

  it("never matches another session's output", async () => {
    const { store, later } = await twoCalls({ sessionId: "ses_other" });
    const message = await defaultHandleMessage(later, store, { sessionId: "ses_other" }, 5, TASK);
    expect(message).not.toContain("the same output as for an earlier call");
  });

  it("gets the whole message with the switch off, and for the first call", async () => {
    const { store, earlier, later } = await twoCalls();
    const off = await defaultHandleMessage(later, store, SCOPE, 5, { ...TASK, repeatNote: false });
    expect(off).toContain("First lines:");
    expect(await earlierSameOutput(store, earlier)).toBeUndefined();
    expect((await earlierSameOutput(store, later))?.id).toBe(earlier.id);
  });
});

describe("canonicalArguments", () => {
  it("orders keys at every depth and leaves text that is not JSON as it is", () => {
    expect(canonicalArguments('{"b":{"y":1,"x":2},"a":[{"d":1,"c":2}]}')).toBe(
      '{"a":[{"c":2,"d":1}],"b":{"x":2,"y":1}}',
    );
    expect(canonicalArguments("path=a.log")).toBe("path=a.log");
  });
});
