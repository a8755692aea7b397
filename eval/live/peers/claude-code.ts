/**
 * Claude Code, as it handles a large tool result and a full window (sources in
 * docs/evaluation.md, "The peers"):
 * - a result over 50,000 characters is saved to a file and replaced by `<persisted-output>` with
 *   the path and a 2 KB preview (Bash's ceiling is 30,000 characters, Grep's 20,000);
 * - Read (`file_path`, `offset`, `limit`; 2,000 lines by default; a token cap: a whole-file read
 *   over it returns its first page marked as a partial view, an explicit range over it an error),
 *   Grep (ripgrep; `output_mode` files_with_matches by default; `-n`, `-A/-B/-C`, `-i`,
 *   `head_limit` 250) and Bash, over the project it works in and the saved results;
 * - when the context fills (about 83% of the window), older tool results are cleared first
 *   (`[Old tool result content cleared]`, the three latest kept), then the conversation is
 *   summarized and continues from the summary.
 * Claude Code's Read cap (25,000 tokens) is larger than the whole 8K window the benchmark runs;
 * a competent user of a small model sets it to fit (`CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS`),
 * as the harness does here, to a quarter of the window.
 */
import type { ModelMessage } from "ai";
import { runShell } from "../../shell-run.js";
import { BASH_TOOL } from "../../spill-shell.js";
import { persistedOutputMessage, sizeLabel } from "../../spill-to-file.js";
import type { PeerHarness, PeerTool, WindowState } from "../peer-loop.js";
import { clearOldResults } from "./context.js";
import { PEER_SHELL } from "./peer-shell.js";
import { grepFiles, lineCount, numbered, Workspace } from "./workspace.js";

const PERSIST_OVER_CHARS = 50_000;
const BASH_PERSIST_OVER_CHARS = 30_000;
const GREP_PERSIST_OVER_CHARS = 20_000;
const PREVIEW_CHARS = 2_000;
const READ_DEFAULT_LINES = 2_000;
const GREP_HEAD_LIMIT = 250;
const AUTO_COMPACT_FRACTION = 0.83;
const KEEP_RECENT_RESULTS = 3;

const SUMMARY_INSTRUCTION =
  "Your task is to create a detailed summary of the conversation so far, paying close attention to the user's explicit requests and your previous actions. " +
  "Capture the user's request, the files and exact values found so far (quote them exactly), what remains to be done, and the next step. " +
  "Respond with text only; do not call any tools.";

const CONTINUATION =
  "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n";

function preview(text: string): string {
  const head = text.slice(0, PREVIEW_CHARS);
  const newline = head.lastIndexOf("\n");
  return newline > PREVIEW_CHARS / 2 ? head.slice(0, newline) : head;
}

export const READ_TOOL: PeerTool = {
  name: "Read",
  description:
    "Reads a file from the local filesystem. The file_path parameter must be an absolute path. By default, it reads up to 2000 lines starting from the beginning of the file. You can optionally specify a line offset and limit (especially handy for long files). Results are returned with line numbers.",
  parameters: {
    type: "object",
    additionalProperties: false,
    required: ["file_path"],
    properties: {
      file_path: { type: "string", description: "The absolute path to the file to read" },
      offset: {
        type: "number",
        description:
          "The line number to start reading from. Only provide if the file is too large to read at once",
      },
      limit: {
        type: "number",
        description:
          "The number of lines to read. Only provide if the file is too large to read at once.",
      },
    },
  },
};

export const GREP_TOOL: PeerTool = {
  name: "Grep",
  description:
    'A search tool built on ripgrep. Supports full regex syntax. Filter files with path. Output modes: "content" shows matching lines, "files_with_matches" shows only file paths (default), "count" shows match counts.',
  parameters: {
    type: "object",
    additionalProperties: false,
    required: ["pattern"],
    properties: {
      pattern: {
        type: "string",
        description: "The regular expression pattern to search for in file contents",
      },
      path: {
        type: "string",
        description: "File or directory to search in. Defaults to the current working directory.",
      },
      output_mode: {
        type: "string",
        enum: ["content", "files_with_matches", "count"],
        description: 'Output mode. Defaults to "files_with_matches".',
      },
      "-i": { type: "boolean", description: "Case insensitive search" },
      "-n": {
        type: "boolean",
        description:
          "Show line numbers in output. Requires output_mode: content. Defaults to true.",
      },
      "-A": { type: "number", description: "Number of lines to show after each match" },
      "-B": { type: "number", description: "Number of lines to show before each match" },
      "-C": { type: "number", description: "Number of lines to show before and after each match" },
      head_limit: {
        type: "number",
        description: "Limit output to first N lines/entries. Defaults to 250; 0 for unlimited.",
      },
      offset: {
        type: "number",
        description: "Skip first N lines/entries before applying head_limit. Defaults to 0.",
      },
    },
  },
};

const num = (value: unknown, fallback: number) =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;

/**
 * Claude Code's harness in a project, saving large results to `spillDir`, its Read cap set to
 * `readCapTokens`.
 *
 * @example
 * const harness = claudeCode("/tmp/run/project", "/tmp/run/spill/t1", 2048, (t) => count(t));
 */
export function claudeCode(
  project: string,
  spillDir: string,
  readCapTokens: number,
  countText: (t: string) => number,
): PeerHarness {
  const spill = new Workspace(project, spillDir);
  const persisted = async (text: string, name: string, over: number) => {
    if (text.length <= over) return text;
    const path = await spill.put(`${name}.txt`, text);
    return persistedOutputMessage(path, sizeLabel(text.length), preview(text));
  };
  const read = async (args: Record<string, unknown>) => {
    if (typeof args.file_path !== "string") return "Error: file_path is required";
    const text = await spill.read(args.file_path);
    if (text === undefined) return `Error: File does not exist: ${args.file_path}`;
    const explicit = args.offset !== undefined || args.limit !== undefined;
    const from = Math.max(1, num(args.offset, 1));
    const to = from + num(args.limit, READ_DEFAULT_LINES) - 1;
    const body = numbered(text, from, to);
    const tokens = countText(body);
    if (tokens <= readCapTokens) return body;
    if (explicit)
      return `Error: File content (${tokens} tokens) exceeds maximum allowed tokens (${readCapTokens}). Please use offset and limit parameters to read specific portions of the file, or use the Grep tool to search for specific content.`;
    // A whole-file read over the cap: the first page that fits, marked as partial.
    let end = from;
    while (end < to && countText(numbered(text, from, end + 50)) <= readCapTokens) end += 50;
    while (end > from && countText(numbered(text, from, end)) > readCapTokens) end -= 5;
    return `[Truncated: PARTIAL view of ${args.file_path}: lines ${from}-${end} of ${lineCount(text)}. Use offset and limit to read more.]\n${numbered(text, from, end)}`;
  };
  return {
    name: "claude-code",
    tools: [
      READ_TOOL,
      GREP_TOOL,
      {
        ...BASH_TOOL,
        parameters: BASH_TOOL.parameters as Record<string, unknown>,
        description: BASH_TOOL.description ?? "",
      },
    ],
    view: (text, id) => persisted(text, `mcp-fs-read_text_file-${id}`, PERSIST_OVER_CHARS),
    async run(name, args, id) {
      if (name === READ_TOOL.name) return read(args);
      if (name === GREP_TOOL.name) {
        if (typeof args.pattern !== "string") return "Error: pattern is required";
        const context = num(args["-C"], 0);
        const mode =
          args.output_mode === "content" || args.output_mode === "count"
            ? args.output_mode
            : "files_with_matches";
        const out = await grepFiles(spill, {
          pattern: args.pattern,
          ...(typeof args.path === "string" ? { path: args.path } : {}),
          outputMode: mode,
          ignoreCase: args["-i"] === true,
          lineNumbers: args["-n"] !== false,
          before: num(args["-B"], context),
          after: num(args["-A"], context),
          headLimit: num(args.head_limit, GREP_HEAD_LIMIT),
          offset: num(args.offset, 0),
        });
        return persisted(out, `grep-${id}`, GREP_PERSIST_OVER_CHARS);
      }
      if (name === BASH_TOOL.name) {
        if (typeof args.command !== "string" || args.command.trim() === "")
          return "Error: command is required";
        const run = await runShell(args.command, project, PEER_SHELL);
        const status = run.code === 0 ? "" : `\n[exit code ${run.code ?? "killed"}]`;
        return persisted(`${run.output.trimEnd()}${status}`, `bash-${id}`, BASH_PERSIST_OVER_CHARS);
      }
      return `Error: No such tool available: ${name}`;
    },
    async manage(messages: ModelMessage[], state: WindowState) {
      const limit = AUTO_COMPACT_FRACTION * state.window;
      if (state.tokens <= limit) return messages;
      // Older tool outputs first.
      const cleared = clearOldResults(
        messages,
        KEEP_RECENT_RESULTS,
        "[Old tool result content cleared]",
      );
      const fixed = state.tokens - state.count(messages);
      if (fixed + state.count(cleared) <= limit) return cleared;
      // Then a summary of the conversation, which continues from it.
      const summary = await state.summarize(cleared, SUMMARY_INSTRUCTION);
      const first = messages[0]!;
      return [first, { role: "user", content: `${CONTINUATION}${summary}` }];
    },
  };
}
