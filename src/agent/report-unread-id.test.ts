import { describe, expect, it } from "vitest";
import { idOf, runGuarded as run } from "../../test/helpers/report-guard-run.js";
import { toolCall, toolMessages } from "../testing/index.js";
import { idAsWritten, unreadIdsGiven } from "./report-unread-id.js";

const ID = "out_84h1pdgzdvd9xdq8a4h3jar4mw";
const PART = "84h1pdgzdvd9xdq8a4h3jar4mw";

describe("idAsWritten", () => {
  it("finds the id whole or its random part alone, in any letter case, as the report wrote it", () => {
    expect(idAsWritten(`The request id is ${ID}.`, ID)).toBe(ID);
    expect(idAsWritten(`The request id is ${PART}.`, ID)).toBe(PART);
    expect(idAsWritten(`It is ${PART.toUpperCase()}`, ID)).toBe(PART.toUpperCase());
    expect(idAsWritten(`Out_${PART} is the id.`, ID)).toBe(`Out_${PART}`);
    expect(idAsWritten(`It is ${ID.toUpperCase()}.`, ID)).toBe(ID.toUpperCase());
  });

  it("takes the part between punctuation, markup included", () => {
    expect(idAsWritten(`It is _${PART}_.`, ID)).toBe(PART);
    expect(idAsWritten(`It is req-${PART}.`, ID)).toBe(PART);
    expect(idAsWritten(`It is "${PART}"`, ID)).toBe(PART);
  });

  it("does not take the part inside a longer run of letters, marks or digits", () => {
    expect(idAsWritten(`token x${PART}`, ID)).toBeUndefined();
    expect(idAsWritten(`token ${PART}9`, ID)).toBeUndefined();
    expect(idAsWritten(`token é${PART}`, ID)).toBeUndefined();
    expect(idAsWritten(`token ${PART}\u0301`, ID)).toBeUndefined();
  });

  it("takes a part of 8 characters alone, a shorter one only with its prefix", () => {
    expect(idAsWritten("It is abcdefgh.", "out_abcdefgh")).toBe("abcdefgh");
    expect(idAsWritten("It is abcdefg.", "out_abcdefg")).toBeUndefined();
    expect(idAsWritten("It is out_abcdefg.", "out_abcdefg")).toBe("out_abcdefg");
    expect(idAsWritten("The count is 1.", "out_1")).toBeUndefined();
    expect(idAsWritten("The count is out_12.", "out_1")).toBeUndefined();
  });

  it("takes an id without a prefix whole", () => {
    expect(idAsWritten("It is 84h1pdgzdvd9.", "84h1pdgzdvd9")).toBe("84h1pdgzdvd9");
    expect(idAsWritten("It is 84h1pdgzdvd.", "84h1pdgzdvd9")).toBeUndefined();
  });
});

describe("unreadIdsGiven", () => {
  const unread = [{ id: ID, toolName: "fs__read_text_file" }];

  it("names the ids the report gives, as written", async () => {
    const report = `The id is ${PART.toUpperCase()}.`;
    expect(await unreadIdsGiven(report, unread, async () => ["other text"])).toEqual([
      { output: unread[0], given: PART.toUpperCase() },
    ]);
  });

  it("leaves out an id whose random part a tool result showed, in any case", async () => {
    const report = `The token is ${PART.toUpperCase()}.`;
    const returned = async () => [`token=${PART.toUpperCase()}`];
    expect(await unreadIdsGiven(report, unread, returned)).toEqual([]);
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
    expect(result.report).toMatch(/^The request id is [0-9a-z]{26}\.$/);
    const notes = toolMessages(fixture.server.requests.at(-1)!).slice(1);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.text).toMatch(
      /^Not delivered: your report gives ([0-9a-z]{26}) as a value, but \1 is part of out_\1, which is only the name of the stored output of test__generate_output, not something it holds, and you have not read it\.\nRead it first with get_tool_output/,
    );
  });

  it("is delivered at once when a tool result showed that value", async () => {
    const { result, fixture } = await run((request, context) => {
      if (context.callIndex === 0)
        return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
      const bare = idOf(toolMessages(request)[0]!.text).slice("out_".length).toUpperCase();
      if (context.callIndex === 1)
        return toolCall("test__generate_output", {
          bytes: 200,
          kind: "log",
          needle: `token=${bare}`,
          needle_at: 0.5,
        });
      return toolCall("agent__final_report", { report: `The token is ${bare}.` });
    });
    expect(result.status).toBe("completed");
    expect(result.turns).toBe(3);
    expect(result.report).toMatch(/^The token is [0-9A-Z]{26}\.$/);
    expect(fixture.server.requests).toHaveLength(3);
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
