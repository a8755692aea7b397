/**
 * A backslash the model did not double in its JSON (`CORP\bokafor`) reaches spillway's own tools
 * as typed, not as a backspace (SW-67); a server's tool gets its arguments untouched.
 */
import { describe, expect, it } from "vitest";
import { idOf, runGuarded as run } from "../../test/helpers/report-guard-run.js";
import { toolCall, toolMessages } from "../testing/index.js";

/** An echoed text large enough to be stored by handle, one line naming a Windows account. */
const LOG = Array.from({ length: 1500 }, (_, i) =>
  i === 1287 ? "4740 locked out CORP\\bokafor" : `4624 logged on CORP\\user${i}`,
).join("\n");

describe("a backslash the model's JSON turned into a control character", () => {
  it("is a backslash again in the final report", async () => {
    // JSON.stringify writes the backspace as \b: what a model that typed CORP\bokafor sends.
    const { result } = await run(() =>
      toolCall("agent__final_report", { report: "The account is CORP\bokafor." }),
    );
    expect(result.status).toBe("completed");
    expect(result.report).toBe("The account is CORP\\bokafor.");
  });

  it("is a backslash again in a read's pattern, which then finds the line", async () => {
    let found = "";
    const { result } = await run((request, context) => {
      const seen = toolMessages(request);
      if (context.callIndex === 0) return toolCall("test__echo", { text: LOG });
      if (context.callIndex === 1)
        return toolCall("get_tool_output", {
          id: idOf(seen[0]!.text),
          mode: "grep",
          pattern: "CORP\bokafor",
        });
      found = seen.at(-1)!.text;
      return toolCall("agent__final_report", { report: "done" });
    });
    expect(result.status).toBe("completed");
    expect(found).toContain("1 matching line");
    expect(found).toContain("1288:17: 4740 locked out CORP\\bokafor");
  });

  it("reaches a server's tool untouched: what its arguments mean is the server's to say", async () => {
    let echoed = "";
    await run((request, context) => {
      if (context.callIndex === 0) return toolCall("test__echo", { text: "page\fbreak" });
      echoed = toolMessages(request)[0]!.text;
      return toolCall("agent__final_report", { report: "done" });
    });
    expect(echoed).toContain("page\fbreak");
    expect(echoed).not.toContain("page\\fbreak");
  });
});
