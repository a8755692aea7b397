/**
 * The session passes the `askedModes` switch to its reads (SW-63): a slice sent with a query and
 * no position is read as the search by default, and as the slice it names with the switch off.
 */
import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { toolCall, toolMessages } from "../testing/index.js";
import { runAgent } from "./run-agent.js";

const idOf = (text: string) => /out_[0-9a-z]{26}/.exec(text)![0];

async function readShown(askedModes: boolean): Promise<string> {
  let shown = "";
  const fixture = await agentFixture((request, context) => {
    if (context.callIndex === 0)
      return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
    if (context.callIndex === 1)
      return toolCall("get_tool_output", {
        id: idOf(toolMessages(request)[0]!.text),
        mode: "slice",
        query: "ERROR",
      });
    shown = toolMessages(request).at(-1)!.text;
    return toolCall("agent__final_report", { report: "done" });
  });
  const agent = await fixture.agent(`asked-${askedModes}`, {
    mcpServers: { test: testServerSpec() },
    maxTurns: 5,
    ...(askedModes ? {} : { guidance: { askedModes: false } }),
  });
  await runAgent({ agent, prompt: "go", stores: fixture.stores, cwd: fixture.dir });
  return shown;
}

describe("a session's read with a query and no position in mode slice", () => {
  it("is read as the search by default, and as the slice it names with askedModes off", async () => {
    const asked = await readShown(true);
    expect(asked.startsWith('[Read as mode="search": mode="slice" was given no position')).toBe(
      true,
    );
    const named = await readShown(false);
    expect(named).not.toContain("Read as");
    expect(named).toContain('[Not used in mode="slice": query');
  });
});
