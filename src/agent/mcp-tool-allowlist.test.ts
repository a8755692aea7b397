import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { finalText, toolNames } from "../testing/index.js";
import { runAgent } from "./run-agent.js";

describe("mcpServers.<name>.tools", () => {
  it("offers the model only the listed tools of that server", async () => {
    const fixture = await agentFixture(() => finalText("done"));
    const agent = await fixture.agent("allow", {
      mcpServers: { test: { ...testServerSpec(), tools: ["echo", "slow"] } },
    });
    const result = await runAgent({ agent, prompt: "go", home: fixture.home, cwd: fixture.dir });
    expect(result.status).toBe("completed");
    const offered = toolNames(fixture.server.requests[0]!).filter((name) =>
      name.startsWith("test__"),
    );
    expect(offered.sort()).toEqual(["test__echo", "test__slow"]);
  });
});
