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

/** [frontmatter line, key path, shown value, text of what is allowed] */
const INVALID: [string, string, string, string][] = [
  ["description: 5", "description", "got 5", "expected a string"],
  ["models: []", "models", "got []", "non-empty list of model refs"],
  ["models: 5", "models", "got 5", "a model ref"],
  ["models: [openai/gpt-4.1, gpt-4o]", "models.1", 'got "gpt-4o"', "the provider is missing"],
  ["models: openai/", "models", 'got "openai/"', "the model is missing"],
  ["models: openai-compatible/vllm", "models", "got", "openai-compatible/<name>/<model>"],
  ["mcpServers: 5", "mcpServers", "got 5", "a mapping of server name to server spec, or a list"],
  [
    "mcpServers: [fs, 'bad name']",
    "mcpServers.1",
    'got "bad name"',
    'letters, digits, "_" and "-"',
  ],
  ["mcpServers: { 'a b': { command: x } }", "mcpServers.a b", 'the key "a b"', "a server name"],
  ["mcpServers: { fs: { args: [x] } }", "mcpServers.fs", "", "needs command"],
  ["mcpServers: { fs: { command: x, url: 'http://h' } }", "mcpServers.fs", "", "not both"],
  [
    "mcpServers: { fs: { url: 'ftp://h' } }",
    "mcpServers.fs.url",
    'got "ftp://h"',
    "an http(s) URL",
  ],
  [
    "mcpServers: { fs: { url: 'http://h', cwd: x } }",
    "mcpServers.fs.cwd",
    "",
    "only to a local server",
  ],
  [
    "mcpServers: { fs: { command: x, headers: { a: b } } }",
    "mcpServers.fs.headers",
    "",
    "only to a url server",
  ],
  [
    "mcpServers: { fs: { command: x, hideArguments: [head] } }",
    "mcpServers.fs.hideArguments",
    'got ["head"]',
    "a mapping of tool name to a list of argument names",
  ],
  [
    "mcpServers: { fs: { command: x, hideArguments: { read_text_file: head } } }",
    "mcpServers.fs.hideArguments.read_text_file",
    'got "head"',
    "a list of argument names",
  ],
  [
    "mcpServers: { fs: { command: x, args: x } }",
    "mcpServers.fs.args",
    'got "x"',
    "a list of strings",
  ],
  ["mcpServers: { fs: { command: x, env: { A: 1 } } }", "mcpServers.fs.env.A", "got 1", "a string"],
  ["mcpServers: { fs: { command: x, cmd: y } }", "mcpServers.fs.cmd", "", 'unknown key "cmd"'],
  // A removed guidance switch is refused, naming the switches that exist.
  [
    "guidance: { focusedReading: false }",
    "guidance.focusedReading",
    'unknown key "focusedReading"',
    "taskFocus, reportGuards",
  ],
  [
    "guidance: { finalTurn: false }",
    "guidance.finalTurn",
    'unknown key "finalTurn"',
    "taskFocus, reportGuards",
  ],
  [
    "guidance: { recordWordLines: false }",
    "guidance.recordWordLines",
    'unknown key "recordWordLines"',
    "taskFocus, reportGuards",
  ],
  [
    "guidance: { readAfterSendBack: false }",
    "guidance.readAfterSendBack",
    'unknown key "readAfterSendBack"',
    "taskFocus, reportGuards",
  ],
  ["maxTurns: 0", "maxTurns", "got 0", "an integer from 1 to 1000"],
  ["maxTurns: 1001", "maxTurns", "got 1001", "an integer from 1 to 1000"],
  ["maxTurns: 2.5", "maxTurns", "got 2.5", "an integer from 1 to 1000"],
  ["maxTurns: ten", "maxTurns", 'got "ten"', "an integer from 1 to 1000"],
  ["toolResponseMaxBytes: 255", "toolResponseMaxBytes", "got 255", "an integer >= 256"],
  ["toolConcurrency: 0", "toolConcurrency", "got 0", "an integer from 1 to 64"],
  ["toolConcurrency: 65", "toolConcurrency", "got 65", "an integer from 1 to 64"],
  ["toolTimeoutSecs: 0", "toolTimeoutSecs", "got 0", "a number > 0"],
  ["toolTimeoutSecs: .inf", "toolTimeoutSecs", "got Infinity", "a number > 0"],
  ["toolOutput: 5", "toolOutput", "got 5", "a mapping with the keys enabled, surface"],
  [
    "toolOutput: { enabled: yes please }",
    "toolOutput.enabled",
    'got "yes please"',
    "true or false",
  ],
  [
    "toolOutput: { surface: get_output }",
    "toolOutput.surface",
    'got "get_output"',
    'one of "get_tool_output", "tool_output" or "get_continuation"',
  ],
  [
    "toolOutput: { continuationChars: 99 }",
    "toolOutput.continuationChars",
    "got 99",
    "an integer >= 100",
  ],
  [
    "toolOutput: { synopsisLines: 51 }",
    "toolOutput.synopsisLines",
    "got 51",
    "an integer from 0 to 50",
  ],
  ["contextWindow: big", "contextWindow", 'got "big"', "an integer (tokens, for every model"],
  ["contextWindow: 0", "contextWindow", "got 0", "an integer >= 1"],
  [
    "contextWindow: { openai/gpt-4.1: 1.5 }",
    "contextWindow.openai/gpt-4.1",
    "got 1.5",
    "an integer >= 1",
  ],
  [
    "contextWindow: { gpt-4.1: 1000 }",
    "contextWindow.gpt-4.1",
    'the key "gpt-4.1"',
    "provider is missing",
  ],
  ["maxOutputTokens: 0", "maxOutputTokens", "got 0", "an integer >= 1"],
  ["stream: 'true'", "stream", 'got "true"', "true or false"],
  ["agents: sub.md", "agents", 'got "sub.md"', "a list of paths to agent files"],
  ["agents: ['']", "agents.0", 'got ""', "a path to an agent file"],
  ["extraction: []", "extraction", "got []", "a mapping with the keys models, maxChunks"],
  ["extraction: { models: [x] }", "extraction.models.0", 'got "x"', "the provider is missing"],
  ["extraction: { maxChunks: 0 }", "extraction.maxChunks", "got 0", "an integer >= 1"],
  [
    "extraction: { chunkOverlapPercent: 95 }",
    "extraction.chunkOverlapPercent",
    "got 95",
    "a number >= 0 and <= 90",
  ],
  [
    "extraction: { concurrency: 100 }",
    "extraction.concurrency",
    "got 100",
    "an integer from 1 to 64",
  ],
  ["async: 1", "async", "got 1", "true or false"],
  ["asyncTimeoutSecs: -1", "asyncTimeoutSecs", "got -1", "a number >= 0"],
  ["asyncTokenThreshold: 1.5", "asyncTokenThreshold", "got 1.5", "an integer >= 0"],
];

describe("loadAgentFile: invalid values", () => {
  it.each(INVALID)("%s → %s", async (yaml, key, got, allowed) => {
    const path = agent(`# a comment on line 2\n${yaml}`);
    const error = await failure(path);
    expect(error.code).toBe("AGENT_FILE_INVALID");
    expect(error.message).toContain(`Invalid agent file ${path}: ${key} (line 3): `);
    expect(error.message).toContain(got);
    expect(error.message).toContain(allowed);
    expect(error.details).toMatchObject({ file: path, key, line: 3 });
  });

  it("names the file, key, value and valid providers for an unknown provider", async () => {
    const path = agent("models:\n  - openai/gpt-4.1\n  - gemini/flash");
    const error = await failure(path);
    expect(error.code).toBe("UNKNOWN_PROVIDER");
    expect(error.message).toBe(
      `Invalid agent file ${path}: models.1 (line 4): unknown provider "gemini" in model ref ` +
        '"gemini/flash"; valid providers: openai, anthropic, ollama, openai-compatible/<name>, local ' +
        '(e.g. "openai/gpt-4.1", "ollama/qwen2.5:7b", "openai-compatible/vllm/meta-llama/Llama-3-8B", ' +
        '"local/qwen2.5-coder-1.5b-instruct-q4_k_m" or "local/./models/model.gguf").',
    );
    expect(error.details).toMatchObject({
      file: path,
      key: "models.1",
      value: "gemini/flash",
      validProviders: ["openai", "anthropic", "ollama", "openai-compatible", "local"],
    });
  });

  it("reports an unknown provider in a contextWindow key and in extraction models", async () => {
    const keyed = await failure(agent("contextWindow: { mistral/large: 1000 }"));
    expect(keyed.code).toBe("UNKNOWN_PROVIDER");
    expect(keyed.message).toContain(
      'contextWindow.mistral/large (line 2): unknown provider "mistral"',
    );
    const extraction = await failure(agent("extraction: { models: mistral/large }"));
    expect(extraction.code).toBe("UNKNOWN_PROVIDER");
    expect(extraction.message).toContain("extraction.models (line 2)");
  });

  it("lists every problem, in line order", async () => {
    const path = agent("maxTurns: 0\nstream: 1\ntoolOutput: { surface: x }");
    const error = await failure(path);
    expect(error.message).toBe(
      `Invalid agent file ${path} (3 problems):\n` +
        "  - maxTurns (line 2): got 0; expected an integer from 1 to 1000\n" +
        "  - stream (line 3): got 1; expected true or false\n" +
        '  - toolOutput.surface (line 4): got "x"; expected one of "get_tool_output", "tool_output" or "get_continuation"',
    );
    expect(error.details.problems).toHaveLength(3);
  });

  it("rejects frontmatter that is not a mapping", async () => {
    const error = await failure(agent("- a\n- b"));
    expect(error.message).toContain(
      'line 2: got ["a","b"]; expected a mapping with the keys description',
    );
  });
});
