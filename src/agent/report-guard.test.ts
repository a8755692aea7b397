import { describe, expect, it } from "vitest";
import { idOf, runGuarded as run, sentReport } from "../../test/helpers/report-guard-run.js";
import { type Responder, toolCall, toolMessages, toolNames } from "../testing/index.js";

/**
 * Generates a large log (shown by handle), then reports at once, as the 1.5B model did;
 * `afterNote` is what it does when its report is sent back.
 */
function reportsFirst(
  afterNote: "report-again" | "read" | "none",
  bytes = 40_000,
  firstReport: (id: string) => string = () => "The service failed.",
): Responder {
  return (request, context) => {
    if (context.callIndex === 0) return toolCall("test__generate_output", { bytes, kind: "log" });
    const seen = toolMessages(request);
    const last = seen[seen.length - 1]!;
    if (context.callIndex === 1)
      return toolCall("agent__final_report", { report: firstReport(idOf(seen[0]!.text)) });
    if (
      afterNote === "read" &&
      last.toolName === "agent__final_report" &&
      toolNames(request).includes("get_tool_output")
    )
      return toolCall("get_tool_output", {
        id: idOf(seen[0]!.text),
        mode: "grep",
        pattern: "ERROR",
      });
    // Ids written as OUT: a report that names an unread output's id is another case (below).
    return toolCall("agent__final_report", {
      report: seen
        .map((m) => `${m.toolName}: ${m.text.slice(0, 600)}`)
        .join("\n---\n")
        .replaceAll(/out_[0-9a-z]{26}/g, "OUT"),
    });
  };
}

describe("a report before any read of an output shown by handle", () => {
  it("is taken at once when it passes the checks: reading first is the model's choice", async () => {
    const { result } = await run(reportsFirst("report-again"));
    expect(result.status).toBe("completed");
    expect(result.turns).toBe(2);
    expect(result.report).toBe("The service failed.");
  });

  it("stating a value nothing showed: sent back once, naming the value", async () => {
    const { result, fixture } = await run(
      reportsFirst("report-again", 40_000, () => "It failed at 08:02:77."),
    );
    expect(result.turns).toBe(3);
    const seen = (await sentReport(fixture, result.sessionId)).split("\n---\n");
    expect(seen[1]).toMatch(
      /^agent__final_report: Not delivered: your report gives "08:02:77", which no tool result of this session showed\./,
    );
    expect(seen[1]).toContain("Read the output for the value your task asks for");
  });

  it("after the note, a read then a report: the report is taken and holds what the read returned", async () => {
    const { result, fixture } = await run(
      reportsFirst("read", 40_000, () => "It failed at 08:02:77."),
    );
    expect(result.status).toBe("completed");
    const seen = (await sentReport(fixture, result.sessionId)).split("\n---\n");
    expect(seen[2]).toMatch(/^get_tool_output: \[OUT grep "ERROR"/);
    const calls = await fixture.stores.history.toolCalls(result.sessionId);
    expect(calls.map((c) => c.toolName)).toEqual([
      "test__generate_output",
      "agent__final_report",
      "get_tool_output",
      "agent__final_report",
    ]);
  });

  it("giving the unread output's id as a value: sent back once, saying the id is a name; the second is taken", async () => {
    const { result, fixture } = await run((request, context) => {
      if (context.callIndex === 0)
        return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
      return toolCall("agent__final_report", {
        report: `The incident id is ${idOf(toolMessages(request)[0]!.text)}.`,
      });
    });
    expect(result.status).toBe("completed");
    expect(result.turns).toBe(3);
    expect(result.report).toMatch(/^The incident id is out_/);
    const notes = toolMessages(fixture.server.requests.at(-1)!).slice(1);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.text).toMatch(
      /^Not delivered: your report gives (out_[0-9a-z]{26}) as a value, but \1 is only the name of the stored output of test__generate_output, not something it holds, and you have not read it\.\nRead it first with get_tool_output/,
    );
    // No way around it offered: the note does not invite the same report again.
    expect(notes[0]!.text).not.toContain("again with the same report");
  });

  it("giving the id is taken when the output was shown whole, or in the final turn", async () => {
    const inline = await run(reportsFirst("none", 2_000, (out) => `The answer is ${out}.`));
    expect(inline.result.status).toBe("completed");
    expect(inline.result.turns).toBe(2);
    // maxTurns 2: the report comes in the final turn, where nothing can be read any more.
    const id = (out: string) => `The answer is ${out}.`;
    const last = await run(reportsFirst("none", 40_000, id), 2);
    expect(last.result.status).toBe("completed");
    expect(last.result.turns).toBe(2);
    expect(last.result.report).toMatch(/^The answer is out_/);
  });

  it("is taken at once when every value it states was shown in the handle message's lines", async () => {
    // The handle message shows the log's first lines verbatim: a report quoting one is grounded.
    const firstShownLine = (id: string, seen: string) =>
      /^ {2}1\| (.*)$/m.exec(seen)?.[1] ?? `nothing shown for ${id}`;
    let handle = "";
    const policy: Responder = (request, context) => {
      if (context.callIndex === 0)
        return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
      handle = toolMessages(request)[0]!.text;
      return toolCall("agent__final_report", {
        report: `The first line is: ${firstShownLine(idOf(handle), handle)}`,
      });
    };
    const { result } = await run(policy);
    expect(handle).toMatch(/^ {2}1\| \d{4}-/m);
    expect(result.status).toBe("completed");
    expect(result.turns).toBe(2);
    expect(result.report).toContain(/^ {2}1\| (.*)$/m.exec(handle)![1]);
  });
});

describe("a report before any read whose words have no digit", () => {
  const reportingAtOnce =
    (report: (handle: string) => string): Responder =>
    (request, context) => {
      if (context.callIndex === 0)
        return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
      const handle = toolMessages(request)[0]!.text;
      return toolCall("agent__final_report", { report: report(handle) });
    };

  it("is taken at once when it states no value, or a name nothing showed: only code-like values are checked", async () => {
    for (const report of ["Not found in the output.", "The owner is Quentin Zarkovic."]) {
      const { result } = await run(reportingAtOnce(() => report));
      expect(result.turns, report).toBe(2);
      expect(result.report).toBe(report);
    }
  });
});

/** Generates the log, greps it for `pattern`, then reports `first`; when sent back, `second`. */
function readsThenReports(
  first: (seen: string[]) => string,
  second: (seen: string[]) => string,
  pattern = "ERROR",
): Responder {
  return (request, context) => {
    if (context.callIndex === 0)
      return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
    const seen = toolMessages(request).map((m) => m.text);
    if (context.callIndex === 1)
      return toolCall("get_tool_output", {
        id: idOf(seen[0]!),
        mode: "grep",
        pattern,
        max_matches: 3,
      });
    const sentBack = seen.some((t) => t.startsWith("Not delivered"));
    return toolCall("agent__final_report", { report: sentBack ? second(seen) : first(seen) });
  };
}

/** The first content line a grep result shows, as the model copies it (with its line number). */
const firstGrepRow = (seen: string[]) => seen[1]!.split("\n").find((line) => /^\d+:/.test(line))!;

describe("a report that repeats runtime text or states an unseen value", () => {
  it("repeating the handle message is sent back once, naming the copied sentence", async () => {
    const { result, fixture } = await run(
      readsThenReports(
        (seen) => seen[0]!.split("\n")[0]!,
        (seen) => firstGrepRow(seen),
      ),
    );
    expect(result.status).toBe("completed");
    const note = toolMessages(fixture.server.requests.at(-1)!).at(-1)!.text;
    expect(note).toMatch(
      /^Not delivered: your report repeats text that spillway wrote \("\[spillway\] the output of test__generate_output is stored whole/,
    );
    expect(result.report).toMatch(/^\d+:/);
  });

  it("a value no tool result showed is sent back once, named as written; the next report is taken", async () => {
    const { result, fixture } = await run(
      readsThenReports(
        () => "The failing request is REQ-99999-ZZ.",
        () => "The failing request is REQ-99999-ZZ.",
      ),
    );
    expect(result.status).toBe("completed");
    expect(result.turns).toBe(4);
    const notes = toolMessages(fixture.server.requests.at(-1)!).filter((m) =>
      m.text.startsWith("Not delivered"),
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]!.text).toContain(
      'your report gives "REQ-99999-ZZ", which no tool result of this session showed',
    );
  });

  it("never sends back a report quoting what a read returned, its header, line number, spacing and case aside", async () => {
    const quote = (seen: string[]) => {
      const row = firstGrepRow(seen);
      return `The first error is on line ${row.split(":")[0]}: ${row
        .replace(/^\d+:\d*:?\s*/, "")
        .toUpperCase()
        .replace(/ +/g, "  ")}`;
    };
    // The whole result as the read returned it: the header spillway writes above the lines is
    // part of what the read returned, not runtime text.
    const whole = (seen: string[]) => seen[1]!;
    for (const first of [firstGrepRow, quote, whole]) {
      const { result, fixture } = await run(readsThenReports(first, () => "sent back"));
      expect(result.status).toBe("completed");
      expect(result.report).not.toBe("sent back");
      expect(
        toolMessages(fixture.server.requests.at(-1)!).some((m) =>
          m.text.startsWith("Not delivered"),
        ),
      ).toBe(false);
    }
  });

  it("never sends back a row the handle message showed with its header's names", async () => {
    const responder: Responder = (request, context) => {
      if (context.callIndex === 0)
        return toolCall("test__generate_output", {
          bytes: 40_000,
          kind: "csv",
          needle: "SHP-424242",
          needle_at: 0.5,
        });
      const row = toolMessages(request)[0]!
        .text.split("\n")
        .find((line) => line.includes("SHP-424242") && line.includes("status="));
      return toolCall("agent__final_report", { report: row?.trim() ?? "no named row" });
    };
    const { result } = await run(
      responder,
      8,
      "Which status does the row with note SHP-424242 have?",
    );
    expect(result.status).toBe("completed");
    expect(result.report).toMatch(/^\d+\| id=\d+, .*status=\w+, note=SHP-424242$/);
    expect(result.turns).toBe(2);
  });

  it("a read's nothing-found hint given as the report is runtime text: sent back once", async () => {
    const nothingFound = (seen: string[]) => seen[1]!;
    const { result, fixture } = await run(
      readsThenReports(nothingFound, nothingFound, "NO-SUCH-TEXT"),
    );
    expect(result.status).toBe("completed");
    expect(result.turns).toBe(4);
    const note = toolMessages(fixture.server.requests.at(-1)!).at(-1)!.text;
    expect(note).toMatch(
      /^Not delivered: your report repeats text that spillway wrote \("\[nothing found \(381 lines\)\./,
    );
  });

  it("in the final turn, a report sent back gets one more final turn", async () => {
    const { result, fixture } = await run(
      readsThenReports(
        () => "The answer is QQ-12345-XY.",
        (seen) => firstGrepRow(seen),
      ),
      3,
    );
    expect(result.status).toBe("completed");
    expect(result.report).toMatch(/^\d+:/);
    const last = fixture.server.requests.at(-1)!;
    expect(toolMessages(last).at(-1)!.text).toMatch(
      /^Not delivered: your report gives "QQ-12345-XY"/,
    );
  });
});
