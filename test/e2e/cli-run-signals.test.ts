import { beforeAll, describe, expect, it } from "vitest";
import { toolCall, toolMessages, toolNames } from "../../src/testing/index.js";
import { agentFixture, testServerSpec } from "../helpers/agent-fixture.js";
import { ensureBuilt, runCli } from "../helpers/built-cli.js";

beforeAll(ensureBuilt, 120_000);

const cli = runCli;

describe("spillway run under signals", () => {
  it("Ctrl-C aborts the run: exit 130, the session recorded as aborted", async () => {
    const fixture = await agentFixture(() => ({ delayMs: 30_000, text: "too late" }));
    const agent = await fixture.agent("slow", {});
    const run = await cli(["run", agent, "take your time"], {
      cwd: fixture.dir,
      home: fixture.home,
      onSpawn: (child, stderr) => {
        const poll = setInterval(() => {
          if (stderr().includes("session ses_") && fixture.server.requests.length > 0) {
            clearInterval(poll);
            child.kill("SIGINT");
          }
        }, 50);
      },
    });
    expect(run.code, run.stderr).toBe(130);
    expect(run.ms).toBeLessThan(20_000);
    expect(run.stderr).toContain(
      "interrupted: stopping the run and recording the session as aborted",
    );
    const sessionId = /── aborted · session (ses_[0-9a-z]+)/.exec(run.stderr)?.[1];
    expect(sessionId, run.stderr).toBeDefined();
    expect(run.stderr).toContain(`run --resume ${sessionId}`);
    expect((await fixture.stores.history.getSession(sessionId!)).status).toBe("aborted");
    expect(run.stdout).toBe("");
  });

  it("SIGTERM stops gracefully: the next turn is the last; a background tool still running is recorded as aborted", async () => {
    const fixture = await agentFixture((request) => {
      if (toolNames(request).length === 1)
        return toolCall("agent__final_report", { report: "wrapped up" });
      if (toolMessages(request).length === 0)
        return {
          toolCalls: [
            { name: "test__slow", arguments: { seconds: 30 } },
            { name: "test__echo", arguments: { text: "fast" } },
          ],
        };
      return { ...toolCall("test__echo", { text: "more" }), delayMs: 300 };
    });
    const agent = await fixture.agent("busy", {
      mcpServers: { test: testServerSpec() },
      maxTurns: 50,
    });
    const run = await cli(["run", agent, "work until stopped", "--async-timeout", "0.3"], {
      cwd: fixture.dir,
      home: fixture.home,
      onSpawn: (child, stderr) => {
        const poll = setInterval(() => {
          if (stderr().includes("running in the background after")) {
            clearInterval(poll);
            child.kill("SIGTERM");
          }
        }, 50);
      },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("wrapped up\n");
    expect(run.stderr).toContain("terminated: the agent's next turn is its last");
    expect(run.stderr).toMatch(
      /tool test__slow \(background\) → out_\w+ aborted after [\d.]+ m?s: the session ended before the tool finished/,
    );
    const sessionId = /── completed · session (ses_[0-9a-z]+)/.exec(run.stderr)?.[1];
    const show = await cli(["sessions", "show", sessionId!], {
      cwd: fixture.dir,
      home: fixture.home,
    });
    expect(show.stdout).toMatch(
      /\[async out_\w+ \(time trigger\) · failed: aborted: the session ended before the tool finished\]/,
    );
  });
});
