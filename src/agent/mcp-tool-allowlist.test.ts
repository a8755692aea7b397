import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { finalText, toolCall, toolMessages, toolNames } from "../testing/index.js";
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

describe("mcpServers.<name>.hideArguments", () => {
  it("leaves the arguments out of the schema, refuses a call that passes one, and runs the call without it", async () => {
    const fixture = await agentFixture((request, { callIndex }) => {
      if (callIndex === 0)
        return toolCall("test__generate_output", {
          bytes: 40,
          kind: "log",
          needle: "X-1",
          seed: 1,
        });
      if (callIndex === 1) return toolCall("test__generate_output", { bytes: 40, kind: "log" });
      return finalText(
        toolMessages(request)
          .map((m) => m.text)
          .join("\n---\n"),
      );
    });
    const agent = await fixture.agent("hide", {
      mcpServers: {
        test: { ...testServerSpec(), hideArguments: { generate_output: ["needle", "needle_at"] } },
      },
    });
    const result = await runAgent({ agent, prompt: "go", home: fixture.home, cwd: fixture.dir });
    expect(result.status).toBe("completed");
    const tool = fixture.server.requests[0]!.tools!.find(
      (t) => t.function.name === "test__generate_output",
    )!;
    const properties = Object.keys(
      (tool.function.parameters as { properties: Record<string, unknown> }).properties,
    );
    expect(properties.sort()).toEqual(["bytes", "kind", "seed"]);
    const [refused, ran] = toolMessages(fixture.server.requests[2]!);
    expect(refused!.text).toContain(
      'test__generate_output does not take "needle" here. Call it again without it; its arguments: bytes, kind, seed.',
    );
    expect(ran!.text).not.toContain("does not take");
    const calls = await fixture.stores.history.toolCalls(result.sessionId);
    expect(calls.map((c) => c.status)).toEqual(["error", "ok"]);
  });

  it("names the server, the tool and what is valid when the setting cannot apply", async () => {
    const fixture = await agentFixture(() => finalText("done"));
    const cases: [Record<string, string[]>, string][] = [
      [
        { generate_output: ["lines"] },
        'mcpServers.test.hideArguments.generate_output: generate_output has no argument "lines"; its arguments are bytes, kind, needle, needle_at, seed.',
      ],
      [
        { generate_output: ["bytes"] },
        'mcpServers.test.hideArguments.generate_output: "bytes" is required by generate_output, so it cannot be hidden',
      ],
      [
        { generate: ["bytes"] },
        'mcpServers.test.hideArguments: test offers no tool "generate" here',
      ],
    ];
    for (const [hideArguments, message] of cases) {
      const agent = await fixture.agent("bad-hide", {
        mcpServers: { test: { ...testServerSpec(), hideArguments } },
      });
      const run = runAgent({ agent, prompt: "go", home: fixture.home, cwd: fixture.dir });
      await expect(run).rejects.toThrow(message);
    }
  });
});
