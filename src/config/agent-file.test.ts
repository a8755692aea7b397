import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { asyncFailureOf } from "../../test/helpers/spillway-failure.js";
import { projectDirs, writeText } from "../../test/helpers/temp-dirs.js";
import { loadAgentFile } from "./agent-file.js";

const dirs = projectDirs("spillway-agent-");
let dir = "";
beforeEach(() => {
  dir = dirs.root;
});
const write = (name: string, text: string) => writeText(join(dir, name), text);

/** Writes an agent file whose frontmatter is `yaml` (starting at line 2). */
function agent(yaml: string, body = "You are helpful.", name = "agent.md"): string {
  return write(name, `---\n${yaml}\n---\n${body}\n`);
}

const failure = (path: string) => asyncFailureOf(() => loadAgentFile(path));

describe("loadAgentFile: frontmatter and body", () => {
  it("reads every key and uses the trimmed body as the system prompt", async () => {
    write("sub/helper.md", "Helps.");
    const path = agent(
      [
        "description: Finds things out",
        "models: [openai/gpt-4.1, openai-compatible/vllm/meta-llama/Llama-3-8B]",
        "mcpServers:",
        "  fs: { command: npx, args: [-y, server-fs], env: { DEBUG: '1' }, cwd: data }",
        "  web: { url: 'https://example.com/mcp', headers: { X-Client: spillway } }",
        "maxTurns: 30",
        "toolResponseMaxBytes: 256",
        "toolConcurrency: 64",
        "toolTimeoutSecs: 0.5",
        "toolOutput: { enabled: false, surface: tool_output, continuationChars: 100, synopsisLines: 0 }",
        "contextWindow: 64000",
        "maxOutputTokens: 2048",
        "stream: true",
        "agents: [sub/helper.md]",
        "extraction: { models: ollama/qwen2.5:7b, maxChunks: 8, chunkOverlapPercent: 10, concurrency: 2 }",
        "async: false",
        "asyncTimeoutSecs: 0",
        "asyncTokenThreshold: 500",
      ].join("\n"),
      "\n\n  You are a careful researcher.\n\nCite sources.  \n\n",
      "researcher.md",
    );
    const loaded = await loadAgentFile(path);
    expect(loaded.path).toBe(path);
    expect(loaded.name).toBe("researcher");
    expect(loaded.description).toBe("Finds things out");
    expect(loaded.systemPrompt).toBe("You are a careful researcher.\n\nCite sources.");
    expect(loaded.frontmatter).toEqual({
      description: "Finds things out",
      models: [
        { provider: "openai", model: "gpt-4.1", ref: "openai/gpt-4.1" },
        {
          provider: "openai-compatible",
          name: "vllm",
          model: "meta-llama/Llama-3-8B",
          ref: "openai-compatible/vllm/meta-llama/Llama-3-8B",
        },
      ],
      mcpServers: {
        fs: {
          command: "npx",
          args: ["-y", "server-fs"],
          env: { DEBUG: "1" },
          cwd: join(dir, "data"),
        },
        web: { url: "https://example.com/mcp", headers: { "X-Client": "spillway" } },
      },
      maxTurns: 30,
      toolResponseMaxBytes: 256,
      toolConcurrency: 64,
      toolTimeoutSecs: 0.5,
      toolOutput: {
        enabled: false,
        surface: "tool_output",
        continuationChars: 100,
        synopsisLines: 0,
      },
      contextWindow: 64000,
      maxOutputTokens: 2048,
      stream: true,
      agents: [join(dir, "sub/helper.md")],
      extraction: {
        models: [{ provider: "ollama", model: "qwen2.5:7b", ref: "ollama/qwen2.5:7b" }],
        maxChunks: 8,
        chunkOverlapPercent: 10,
        concurrency: 2,
      },
      async: false,
      asyncTimeoutSecs: 0,
      asyncTokenThreshold: 500,
    });
  });

  it("accepts a file without frontmatter (all defaults, whole text is the prompt)", async () => {
    const path = write("plain.md", "# Title\n\nJust a prompt.\n");
    const loaded = await loadAgentFile(path);
    expect(loaded).toEqual({
      path,
      name: "plain",
      systemPrompt: "# Title\n\nJust a prompt.",
      frontmatter: {},
    });
  });

  it("accepts empty frontmatter, a comment-only one, CRLF line ends and a BOM", async () => {
    expect((await loadAgentFile(write("a.md", "---\n---\nHi"))).frontmatter).toEqual({});
    expect((await loadAgentFile(write("b.md", "---\n# nothing\n---\nHi"))).systemPrompt).toBe("Hi");
    const crlf = await loadAgentFile(write("c.md", "\uFEFF---\r\nmaxTurns: 3\r\n---\r\nHi\r\n"));
    expect(crlf.frontmatter.maxTurns).toBe(3);
    expect(crlf.systemPrompt).toBe("Hi");
  });

  it("accepts a single model ref, a contextWindow map and mcpServers as config names", async () => {
    const loaded = await loadAgentFile(
      agent(
        "models: anthropic/claude-sonnet-4-5\ncontextWindow: { anthropic/claude-sonnet-4-5: 100000 }\nmcpServers: [fs, web]",
      ),
    );
    expect(loaded.frontmatter.models).toEqual([
      { provider: "anthropic", model: "claude-sonnet-4-5", ref: "anthropic/claude-sonnet-4-5" },
    ]);
    expect(loaded.frontmatter.contextWindow).toEqual({ "anthropic/claude-sonnet-4-5": 100000 });
    expect(loaded.frontmatter.mcpServers).toEqual(["fs", "web"]);
  });
});

describe("loadAgentFile: unknown keys", () => {
  it("suggests the near miss and lists the valid keys", async () => {
    const path = agent("description: x\nmaxTurn: 5");
    const error = await failure(path);
    expect(error.code).toBe("AGENT_FILE_INVALID");
    expect(error.message).toContain(
      `Invalid agent file ${path}: maxTurn (line 3): unknown key "maxTurn" (did you mean "maxTurns"?); ` +
        "valid keys: description, models, maxTurns, toolResponseMaxBytes, toolConcurrency, " +
        "toolTimeoutSecs, toolOutput, contextWindow, maxOutputTokens, stream, extraction, async, " +
        "asyncTimeoutSecs, asyncTokenThreshold, asyncMaxRunning, compaction, asyncReadyMessage, helperTools, textReplies, guidance, mcpServers, agents.",
    );
  });

  it("suggests across case and separators, and nothing for a far miss", async () => {
    expect((await failure(agent("tool_output: {}"))).message).toContain(
      '(did you mean "toolOutput"?)',
    );
    expect((await failure(agent("model: openai/gpt-4.1"))).message).toContain(
      '(did you mean "models"?)',
    );
    const far = await failure(agent("colour: red"));
    expect(far.message).toContain('unknown key "colour"; valid keys: description');
    expect(far.message).not.toContain("did you mean");
  });

  it("reports unknown keys inside nested mappings with that mapping's keys", async () => {
    const error = await failure(agent("toolOutput:\n  surfce: tool_output"));
    expect(error.message).toContain(
      'toolOutput.surfce (line 3): unknown key "surfce" (did you mean "surface"?); valid keys: ' +
        "enabled, surface, continuationChars, synopsisLines",
    );
  });
});

describe("loadAgentFile: malformed files", () => {
  it("reports a YAML error with its line and column in the file", async () => {
    const path = agent("maxTurns: 5\nmodels: [a, b\nstream: true");
    const error = await failure(path);
    expect(error.code).toBe("AGENT_FILE_INVALID");
    expect(error.message).toMatch(
      new RegExp(
        `^Invalid agent file ${path}: malformed YAML frontmatter at line 4, column \\d+: `,
      ),
    );
    expect(error.details).toMatchObject({ file: path, line: 4 });
  });

  it("reports duplicate keys and tabs as YAML errors", async () => {
    const duplicate = await failure(agent("maxTurns: 5\nmaxTurns: 6"));
    expect(duplicate.message).toContain("at line 3, column 1: Map keys must be unique");
    const tabs = await failure(agent("toolOutput:\n\tsurface: x"));
    expect(tabs.message).toContain("malformed YAML frontmatter at line 3");
  });

  it("reports frontmatter without a closing line", async () => {
    const path = write("open.md", "---\nmaxTurns: 5\nYou are helpful.\n");
    const error = await failure(path);
    expect(error.message).toContain(`Invalid agent file ${path}: the frontmatter opened by "---"`);
  });

  it("says a missing file is not found, with its absolute path", async () => {
    const error = await failure(join(dir, "nope.md"));
    expect(error.code).toBe("AGENT_FILE_INVALID");
    expect(error.message).toBe(`agent file not found: ${join(dir, "nope.md")}`);
  });

  it("says a directory is not an agent file", async () => {
    mkdirSync(join(dir, "folder.md"));
    expect((await failure(join(dir, "folder.md"))).message).toContain("is a directory");
  });
});

describe("loadAgentFile: sub-agents", () => {
  it("resolves agents against the agent file's folder", async () => {
    write("team/a.md", "A");
    write("b.md", "B");
    const path = agent("agents: [a.md, ../b.md]", "Lead.", "team/lead.md");
    const loaded = await loadAgentFile(path);
    expect(loaded.frontmatter.agents).toEqual([join(dir, "team/a.md"), join(dir, "b.md")]);
  });

  it("names the agent file and the missing sub-agent path", async () => {
    write("a.md", "A");
    const path = agent("agents:\n  - a.md\n  - missing/b.md");
    const error = await failure(path);
    expect(error.code).toBe("AGENT_FILE_INVALID");
    expect(error.message).toBe(
      `Invalid agent file ${path}: agents.1 (line 4): sub-agent file not found: ` +
        `${join(dir, "missing/b.md")} (paths are relative to the agent file's folder).`,
    );
    expect(error.details).toMatchObject({ file: path, key: "agents.1", value: "missing/b.md" });
  });
});
