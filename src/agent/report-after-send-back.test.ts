/**
 * A report after the session's one send-back (report-guard.ts, SW-25): only runtime text, or an
 * unread id among the task's words, ends the session; anything else is delivered without its
 * lines of runtime text.
 */
import { describe, expect, it } from "vitest";
import { idOf, runGuarded as run, sentReport } from "../../test/helpers/report-guard-run.js";
import { type Responder, toolCall, toolMessages } from "../testing/index.js";

describe("a report after the send-back", () => {
  /** Reports the unread output's id, then, sent back, `second(note)` as its report. */
  const idThen =
    (second: (note: string) => string): Responder =>
    (request, context) => {
      if (context.callIndex === 0)
        return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
      const seen = toolMessages(request);
      if (context.callIndex === 1)
        return toolCall("agent__final_report", { report: `The id is ${idOf(seen[0]!.text)}.` });
      return toolCall("agent__final_report", { report: second(seen.at(-1)!.text) });
    };

  it("that is only the send-back note is not delivered: the run fails, naming the copied text", async () => {
    const { result, fixture } = await run(idThen((note) => note));
    expect(result.status).toBe("failed");
    expect(result.report).toBeNull();
    expect(result.turns).toBe(3);
    expect(result.error).toMatch(
      /^The final report was only text spillway wrote \("not delivered: your report gives out_[0-9a-z]{26} as a value/,
    );
    expect(result.error).toContain("no answer was delivered");
    const session = await fixture.stores.history.getSession(result.sessionId);
    expect(session).toMatchObject({ status: "failed", finalReport: null });
  });

  it("that also says something else is delivered without the runtime's lines: the rest may hold the answer", async () => {
    const { result, fixture } = await run(
      idThen((note) => `${note}\nThe service failed at 08:02.`),
    );
    expect(result.status).toBe("completed");
    expect(result.report).toBe("The service failed at 08:02.");
    // The call keeps the report as the model sent it.
    expect(await sentReport(fixture, result.sessionId)).toMatch(
      /^Not delivered: your report gives out_.*\nThe service failed at 08:02\.$/s,
    );
  });

  it("that pastes the handle message keeps the output's lines it quotes, not the message's own", async () => {
    let handle = "";
    const { result } = await run((request, context) => {
      if (context.callIndex === 0)
        return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
      const seen = toolMessages(request);
      handle = seen[0]!.text;
      if (context.callIndex === 1)
        return toolCall("agent__final_report", { report: `The id is ${idOf(handle)}.` });
      return toolCall("agent__final_report", { report: `${seen.at(-1)!.text}\n\n${handle}` });
    });
    expect(result.status).toBe("completed");
    const rows = handle.split("\n").filter((line) => /^ *[\d,]+\| /.test(line));
    expect(rows.length).toBeGreaterThan(0);
    expect(result.report!.split("\n")).toEqual(expect.arrayContaining(rows));
    expect(result.report).not.toContain("Not delivered");
    expect(result.report).not.toContain("is stored whole as");
    expect(result.report).not.toContain("get_tool_output(");
  });

  it("that repeats runtime text with other quote marks is still only runtime text", async () => {
    const { result } = await run((request, context) => {
      if (context.callIndex === 0)
        return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
      const handle = toolMessages(request)[0]!.text;
      if (context.callIndex === 1)
        return toolCall("agent__final_report", { report: `The id is ${idOf(handle)}.` });
      // An example call of the handle message, its double quotes written as single ones.
      const example = handle.split("\n").find((line) => line.includes('mode="slice"'))!;
      return toolCall("agent__final_report", { report: example.trim().replaceAll('"', "'") });
    });
    expect(result.status).toBe("failed");
    expect(result.report).toBeNull();
    expect(result.error).toMatch(
      /^The final report was only text spillway wrote \("get_tool_output\(id="out_/,
    );
  });

  it("that gives the unread id again among the task's own words is not delivered", async () => {
    const task = "What is the id of the request that failed first?";
    const { result } = await run(
      idThen((note) => `The id of the request that failed first is ${idOf(note)}.`),
      8,
      task,
    );
    expect(result.status).toBe("failed");
    expect(result.report).toBeNull();
    expect(result.error).toMatch(
      /^The final report gave out_[0-9a-z]{26}, the name spillway gave an output that was never read, as its answer/,
    );
  });

  it("that gives the unread id beside a word of its own is delivered: the word may be the answer", async () => {
    const task = "What is the id of the request that failed first?";
    const { result } = await run(
      idThen((note) => `The id of the request that failed first is req-7f3a2c (${idOf(note)}).`),
      8,
      task,
    );
    expect(result.status).toBe("completed");
    expect(result.report).toMatch(/is req-7f3a2c \(out_[0-9a-z]{26}\)\.$/);
  });

  it("is delivered when the guards are off, whatever it repeats", async () => {
    const { result } = await run(
      idThen((note) => note),
      8,
      "go",
      {
        guidance: { reportGuards: false },
      },
    );
    expect(result.status).toBe("completed");
    expect(result.report).toMatch(/^The id is out_/);
  });
});
