import { describe, expect, it } from "vitest";
import { idOf, runGuarded as run } from "../../test/helpers/report-guard-run.js";
import { toolCall, toolMessages } from "../testing/index.js";
import { idAsWritten } from "./report-unread-id.js";

const ID = "out_84h1pdgzdvd9xdq8a4h3jar4mw";

describe("idAsWritten", () => {
  it("finds the id whole, or its random part as a word of its own, as the report wrote it", () => {
    expect(idAsWritten(`The request id is ${ID}.`, ID)).toBe(ID);
    expect(idAsWritten("The request id is 84h1pdgzdvd9xdq8a4h3jar4mw.", ID)).toBe(
      "84h1pdgzdvd9xdq8a4h3jar4mw",
    );
    expect(idAsWritten("It is 84H1PDGZDVD9XDQ8A4H3JAR4MW", ID)).toBe("84H1PDGZDVD9XDQ8A4H3JAR4MW");
  });

  it("does not take the random part inside a longer word, or a short part at all", () => {
    expect(idAsWritten("token x84h1pdgzdvd9xdq8a4h3jar4mw9", ID)).toBeUndefined();
    expect(idAsWritten("The request id is req-lect0n.", ID)).toBeUndefined();
    expect(idAsWritten("The count is 1.", "out_1")).toBeUndefined();
    expect(idAsWritten("The count is out_1.", "out_1")).toBe("out_1");
  });
});

describe("a report giving an unread output's id without its prefix", () => {
  it("is sent back once, naming the whole id; the next report is taken", async () => {
    const { result, fixture } = await run((request, context) => {
      if (context.callIndex === 0)
        return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
      const bare = idOf(toolMessages(request)[0]!.text).slice("out_".length);
      return toolCall("agent__final_report", { report: `The request id is ${bare}.` });
    });
    expect(result.status).toBe("completed");
    expect(result.turns).toBe(3);
    const notes = toolMessages(fixture.server.requests.at(-1)!).slice(1);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.text).toMatch(
      /^Not delivered: your report gives ([0-9a-z]{26}) as a value, but \1 is part of out_\1, which is only the name of the stored output of test__generate_output, not something it holds, and you have not read it\.\nRead it first with get_tool_output/,
    );
  });

  it("given again among the task's own words after the send-back: not delivered", async () => {
    const task = "What is the id of the request that failed first?";
    const { result } = await run(
      (request, context) => {
        if (context.callIndex === 0)
          return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
        const bare = idOf(toolMessages(request)[0]!.text).slice("out_".length);
        return toolCall("agent__final_report", {
          report: `The id of the request that failed first is ${bare}.`,
        });
      },
      8,
      task,
    );
    expect(result.status).toBe("failed");
    expect(result.report).toBeNull();
    expect(result.error).toMatch(
      /^The final report gave [0-9a-z]{26}, the name spillway gave an output that was never read, as its answer/,
    );
  });
});
