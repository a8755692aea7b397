import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  finalText,
  findOutputIds,
  type Responder,
  startScriptedModelServer,
  textOf,
  toolCall,
  toolMessages,
} from "../../src/testing/index.js";
import {
  type AgentFixture,
  agentFixture,
  SCRIPTED_MODEL,
  testServerSpec,
} from "../helpers/agent-fixture.js";
import { ensureBuilt, runCli } from "../helpers/built-cli.js";
import { tempDir } from "../helpers/temp-store.js";

const NEEDLE = "NEEDLE-disk-full-on-sda7";

beforeAll(ensureBuilt, 120_000);

const cli = runCli;

/** Generates a large log, greps the handle for the needle, reports the matching line. */
const needlePolicy: Responder = (request) => {
  const last = toolMessages(request).at(-1);
  if (!last) {
    return toolCall("test__generate_output", {
      bytes: 3_000_000,
      kind: "log",
      needle: NEEDLE,
      needle_at: 0.5,
    });
  }
  if (last.toolName === "test__generate_output") {
    const [id] = findOutputIds(last.text);
    return toolCall("get_tool_output", { id, mode: "grep", pattern: NEEDLE });
  }
  const hit = last.text
    .split("\n")
    .find((line) => /^\d+:\d+: /.test(line) && line.includes(NEEDLE));
  return toolCall("agent__final_report", {
    report: `Found the disk error at line ${hit ?? "none"}`,
  });
};

/** Answers in plain text with the last user message it was sent. */
const echoPolicy: Responder = (request) => {
  const users = request.messages
    .filter((m) => m.role === "user")
    .map((m) => textOf(m))
    .filter((text) => !text.startsWith("# System Notice"));
  return finalText(`You asked: ${users.at(-1) ?? ""} (${users.length} user messages)`);
};

async function needleSetup(): Promise<{ fixture: AgentFixture; agent: string }> {
  const fixture = await agentFixture(needlePolicy);
  const agent = await fixture.agent("needle", {
    mcpServers: { test: testServerSpec() },
    maxTurns: 6,
  });
  return { fixture, agent };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

describe("spillway run", () => {
  it("runs an agent: large output announced ready (async size trigger), grep, report alone on stdout, summary on stderr", async () => {
    const { fixture, agent } = await needleSetup();
    // The task's words are not in the output: its handle message shows no search lines, so
    // the answer comes from a read.
    const run = await cli(["run", agent, "Find the storage fault."], {
      cwd: fixture.dir,
      home: fixture.home,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Found the disk error at line \\d+:1: ${NEEDLE}\\n$`));

    const sessionId = /session (ses_[0-9a-z]+)/.exec(run.stderr)?.[1];
    expect(sessionId).toBeDefined();
    expect(run.stderr).toMatch(
      /\[turn 1\/6\] tool test__generate_output → out_[0-9a-z]{26} 3\.0 MB \(ready\) /,
    );
    expect(run.stderr).toMatch(/\[turn 2\/6\] tool get_tool_output ok /);
    expect(run.stderr).toContain(`── completed · session ${sessionId} · 3 turns`);
    expect(run.stderr).toMatch(new RegExp(`model calls +3 × ${SCRIPTED_MODEL} \\(`));
    expect(run.stderr).toMatch(/tokens +[\d,]+ in \/ [\d,]+ out/);
    expect(run.stderr).toContain(
      `cost         unknown: no pricing configured for ${SCRIPTED_MODEL}`,
    );
    expect(run.stderr).toMatch(/tool calls +3 \(/);
    expect(run.stderr).toContain("stored       3.0 MB (3,000,000 bytes)");
    expect(run.stderr).toContain(
      `trace        ${join(fixture.home, "traces", `${sessionId}.jsonl`)}`,
    );
    expect(run.stderr).not.toContain("resume");

    // Over asyncTokenThreshold (default 10000 tokens) the model was shown the handle message
    // (asyncReadyMessage: handle, the default; the terse compatibility text is `ready-menu`), not
    // the output; the session is recorded.
    const handle = toolMessages(fixture.server.requests[1]!)[0]!.text;
    expect(handle).toMatch(
      /^\[spillway\] The output of test__generate_output is stored whole as out_[0-9a-z]{26} \(3,000,000 bytes/,
    );
    expect(handle).toContain('get_tool_output(id="out_');
    expect(handle).not.toContain(NEEDLE);
    const session = await fixture.stores.history.getSession(sessionId!);
    expect(session).toMatchObject({
      status: "completed",
      turns: 3,
      prompt: "Find the storage fault.",
    });
  });

  it("--json prints every event as a JSON line, then the result line (--no-async: shown by handle)", async () => {
    const { fixture, agent } = await needleSetup();
    const run = await cli(["run", agent, "Find the storage fault.", "--json", "--no-async"], {
      cwd: fixture.dir,
      home: fixture.home,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
    const lines = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    const types = lines.map((line) => line.type);
    expect(types[0]).toBe("session.start");
    expect(types.at(-2)).toBe("session.end");
    expect(types.at(-1)).toBe("result");
    for (const type of ["turn.start", "model.call", "tool.start", "tool.end"])
      expect(types).toContain(type);
    const result = lines.at(-1);
    expect(result).toMatchObject({
      status: "completed",
      turns: 3,
      error: null,
      sessionId: lines[0].sessionId,
    });
    expect(result.report).toContain(NEEDLE);
    expect(result.usage.total.modelCalls).toBe(3);
    expect(
      lines.slice(0, -1).every((line) => line.depth === 0 && line.sessionId === result.sessionId),
    ).toBe(true);
    const stored = lines.find(
      (line) => line.type === "tool.end" && line.toolName === "test__generate_output",
    );
    expect(stored).toMatchObject({ status: "ok", shown: "handle", bytes: 3_000_000 });
  });

  it("reads the prompt from stdin; --quiet prints only the report", async () => {
    const fixture = await agentFixture(echoPolicy);
    const agent = await fixture.agent("echo", {});
    const prompt = "Summarize the incident — café ☕\nsecond line";
    const run = await cli(["run", agent, "--quiet"], {
      cwd: fixture.dir,
      home: fixture.home,
      input: `${prompt}\n\n`,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`You asked: ${prompt} (1 user messages)\n`);
    expect(run.stderr).toBe("");
    const [session] = await fixture.stores.history.listSessions();
    expect(session?.prompt).toBe(prompt);
  });

  it("usage errors exit 2 before any model call: no prompt, bad --max-turns or --text-replies, a second agent with --resume", async () => {
    const fixture = await agentFixture(echoPolicy);
    const agent = await fixture.agent("echo", {});
    const at = { cwd: fixture.dir, home: fixture.home };
    const noPrompt = await cli(["run", agent], { ...at, input: "" });
    expect(noPrompt.code).toBe(2);
    expect(noPrompt.stderr).toContain(
      "error USAGE: no prompt: stdin was empty; pass the task as the second argument",
    );
    expect(noPrompt.stderr).toContain("or pipe it on stdin");
    for (const bad of ["0", "3x", "1001", "-1"]) {
      const run = await cli(["run", agent, "task", "--max-turns", bad], at);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `error USAGE: option '--max-turns <n>' argument '${bad}' is invalid. Valid: a whole number from 1 to 1000.`,
      );
    }
    const replies = await cli(["run", agent, "task", "--text-replies", "sometimes"], at);
    expect(replies.code).toBe(2);
    expect(replies.stderr).toContain("'--text-replies <mode>' argument 'sometimes' is invalid");
    expect(replies.stderr).toContain("final, confirm, none");
    const json = await cli(["run", agent, "task", "--max-turns", "x", "--json"], at);
    expect(json.code).toBe(2);
    expect(json.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ type: "error", error: { code: "USAGE" } });
    const unknown = await cli(["run", "--resume", "ses_x", "task", "--max-turns", "3"], at);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("error SESSION_NOT_FOUND");
    expect(fixture.server.requests).toHaveLength(0);
  });

  it("a missing agent file exits 1 naming the path", async () => {
    const fixture = await agentFixture(echoPolicy);
    const run = await cli(["run", "agents/nope.md", "task"], {
      cwd: fixture.dir,
      home: fixture.home,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error AGENT_FILE_INVALID: agent file not found: ${join(fixture.dir, "agents/nope.md")}\n`,
    );
  });

  it("an unreachable model fails fast with how to configure one; --no-preflight runs and fails", async () => {
    const dir = await tempDir("spillway-run-dead-");
    const port = await closedPort();
    const baseURL = `http://127.0.0.1:${port}/v1`;
    await writeFile(
      join(dir, "spillway.config.json"),
      JSON.stringify({ providers: { "openai-compatible": { scripted: { baseURL } } } }),
    );
    await writeFile(join(dir, "agent.md"), `---\nmodels: ["${SCRIPTED_MODEL}"]\n---\nYou test.\n`);
    const at = { cwd: dir, home: join(dir, "home") };
    const run = await cli(["run", "agent.md", "task"], at);
    expect(run.code).toBe(1);
    // Fast means before any model call is retried: the preflight refuses at once (a wall-clock
    // bound would measure the machine's load, not the behaviour).
    expect(run.stderr).not.toMatch(/retrying/);
    expect(run.stderr).toMatch(/^error MODEL_UNAVAILABLE: No model is reachable\. /);
    expect(run.stderr).toContain(
      `The agent wants ${SCRIPTED_MODEL} at ${baseURL} (connection refused)`,
    );
    expect(run.stderr).toContain(
      `correct providers.openai-compatible.scripted.baseURL in ${join(dir, "spillway.config.json")}`,
    );
    expect(run.stderr).toContain("--model openai/gpt-4.1 with OPENAI_API_KEY");
    expect(run.stderr).toContain("--model anthropic/claude-sonnet-4-5 with ANTHROPIC_API_KEY");
    expect(existsSync(join(dir, "home", "traces"))).toBe(false); // no session was started

    const noKey = await cli(["run", "agent.md", "task", "--model", "openai/gpt-4.1", "--json"], at);
    expect(noKey.code).toBe(1);
    expect(JSON.parse(noKey.stdout)).toMatchObject({
      type: "error",
      error: { code: "MISSING_API_KEY", details: { variables: ["OPENAI_API_KEY"] } },
    });
    expect(JSON.parse(noKey.stdout).error.message).toContain(
      "Export OPENAI_API_KEY=… for openai/gpt-4.1,",
    );

    const unchecked = await cli(["run", "agent.md", "task", "--no-preflight"], at);
    expect(unchecked.code).toBe(1);
    const sessionId = /── failed · session (ses_[0-9a-z]+)/.exec(unchecked.stderr)?.[1];
    expect(sessionId, unchecked.stderr).toBeDefined();
    expect(unchecked.stderr).toMatch(
      /model openai-compatible\/scripted\/scripted-policy failed: .* · retrying/,
    );
    expect(unchecked.stderr).toContain(
      `resume       spillway --home ${join(dir, "home")} run --resume ${sessionId}`,
    );
    expect(unchecked.stdout).toBe("");

    // Resume the failed session on another model: the flag overrides its stored settings.
    const alive = await startScriptedModelServer({
      scenario: [{ text: "answered on the second model" }],
    });
    try {
      await writeFile(
        join(dir, "spillway.config.json"),
        JSON.stringify({
          providers: {
            "openai-compatible": { scripted: { baseURL }, alive: { baseURL: alive.baseURL } },
          },
        }),
      );
      const resumed = await cli(
        ["run", "--resume", sessionId!, "--model", "openai-compatible/alive/scripted-policy"],
        at,
      );
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toBe("answered on the second model\n");
      expect(alive.requests).toHaveLength(1);
    } finally {
      await alive.close();
    }
  });

  it("warns when the first model of the list is down and falls back to the next", async () => {
    const { fixture, agent } = await needleSetup();
    const port = await closedPort();
    await writeFile(
      join(fixture.dir, "spillway.config.json"),
      JSON.stringify({
        providers: {
          "openai-compatible": {
            scripted: { baseURL: fixture.server.baseURL },
            dead: { baseURL: `http://127.0.0.1:${port}/v1` },
          },
        },
      }),
    );
    const models = `openai-compatible/dead/m,${SCRIPTED_MODEL}`;
    const run = await cli(["run", agent, "Find the storage fault.", "--model", models], {
      cwd: fixture.dir,
      home: fixture.home,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `warning: openai-compatible/dead/m is not reachable (connection refused); the run will fall back to ${SCRIPTED_MODEL}`,
    );
    expect(run.stderr).toMatch(/model openai-compatible\/dead\/m failed: .* · giving up on it/);
    expect(run.stdout).toContain(NEEDLE);
  });

  it("--resume continues a completed session with a new prompt", async () => {
    const fixture = await agentFixture(echoPolicy);
    const agent = await fixture.agent("echo", {});
    const at = { cwd: fixture.dir, home: fixture.home };
    const first = await cli(["run", agent, "first question", "--quiet"], at);
    expect(first.stdout).toBe("You asked: first question (1 user messages)\n");
    const [session] = await fixture.stores.history.listSessions();
    const resumed = await cli(["run", "--resume", session!.id, "second question"], at);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe("You asked: second question (2 user messages)\n");
    expect(resumed.stderr).toContain(`session ${session!.id} · agent echo`);
    expect(resumed.stderr).toContain("· resumed");
    const sent = fixture.server.requests[1]!;
    const userTexts = sent.messages.filter((m) => m.role === "user").map((m) => textOf(m));
    expect(userTexts.filter((t) => !t.startsWith("# System Notice"))).toEqual([
      "first question",
      "second question",
    ]);
    expect(
      sent.messages.some((m) => m.role === "assistant" && textOf(m).includes("first question")),
    ).toBe(true);
    expect(await fixture.stores.history.listSessions()).toHaveLength(1);
    const after = await fixture.stores.history.getSession(session!.id);
    expect(after).toMatchObject({
      status: "completed",
      finalReport: "You asked: second question (2 user messages)",
    });

    const missing = await cli(["run", "--resume", "ses_nothere", "more"], at);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('error SESSION_NOT_FOUND: No session "ses_nothere"');
  });
});
