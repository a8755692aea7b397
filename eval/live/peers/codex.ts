/**
 * Codex CLI, as it handles a large tool result and a full window (sources in
 * docs/evaluation.md, "The peers"): a model it does not know gets a byte budget of 10,000 for a
 * tool's output, 12,000 where the output is kept in the history (its 20% allowance); over it,
 * the output keeps its head and its tail, with `…N chars truncated…` in the middle. What was cut
 * is not kept: the model can call the tool again, or run commands with its shell in the project
 * (their output cut the same way, with a warning and the line count first). At 90% of the
 * configured window (`model_context_window`, which a user of a small local model sets), the
 * history is compacted: the user's messages and a handoff summary.
 *
 * The 10,000-byte default is larger than an 8K window holds on dense text (digits and CJK run
 * near one token a byte), so a user of a small model sets `tool_output_token_limit`, as the
 * harness does: Codex then cuts to four bytes a token of that limit (×1.2 in the history) and
 * says `…N tokens truncated…`.
 */

import { runShell } from "../../shell-run.js";
import type { PeerHarness, PeerTool } from "../peer-loop.js";
import { CODEX_COMPACTION, compactHistory } from "./context.js";
import { PEER_SHELL } from "./peer-shell.js";

const DEFAULT_OUTPUT_BYTES = 10_000;
const HISTORY_ALLOWANCE = 1.2;
const BYTES_PER_TOKEN = 4;
const AUTO_COMPACT_FRACTION = 0.9;

/** Codex's truncation policy: bytes for a model it does not know, tokens when the user sets a limit. */
export type TruncationPolicy = { readonly bytes: number } | { readonly tokens: number };

const budgetBytes = (policy: TruncationPolicy, scale = 1) =>
  Math.floor(("bytes" in policy ? policy.bytes : policy.tokens * BYTES_PER_TOKEN) * scale);

/**
 * Codex's middle cut to its policy's budget, on character boundaries (`scale` 1.2 in the history).
 *
 * @example
 * codexCut(longText, { tokens: 1024 }, 1.2); // head …N tokens truncated… tail
 */
export function codexCut(
  text: string,
  policy: TruncationPolicy = { bytes: DEFAULT_OUTPUT_BYTES },
  scale = HISTORY_ALLOWANCE,
): string {
  const budget = budgetBytes(policy, scale);
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= budget) return text;
  const half = Math.floor(budget / 2);
  const head = bytes
    .subarray(0, half)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  const tail = bytes
    .subarray(bytes.length - half)
    .toString("utf8")
    .replace(/^\uFFFD/, "");
  if ("bytes" in policy) {
    const removed = text.length - head.length - tail.length;
    return `${head}…${removed} chars truncated…${tail}`;
  }
  const removedBytes = bytes.length - Buffer.byteLength(head) - Buffer.byteLength(tail);
  return `${head}…${Math.ceil(removedBytes / BYTES_PER_TOKEN)} tokens truncated…${tail}`;
}

/** Codex's shell tool (codex-rs/core/src/openai_tools.rs, `create_shell_tool`). */
export const SHELL_TOOL: PeerTool = {
  name: "shell",
  description: "Runs a shell command and returns its output.",
  parameters: {
    type: "object",
    additionalProperties: false,
    required: ["command"],
    properties: {
      command: { type: "array", items: { type: "string" }, description: "The command to execute" },
      workdir: { type: "string", description: "The working directory to execute the command in" },
      timeout_ms: { type: "number", description: "The timeout for the command in milliseconds" },
    },
  },
};

/** A command's output as Codex shows it: exit code, time, and the output within the budget. */
function execOutput(
  output: string,
  code: number | null,
  seconds: number,
  policy: TruncationPolicy,
): string {
  const lines = output.split("\n").length;
  const cut = codexCut(output, policy, 1);
  const body =
    cut === output
      ? output
      : `Warning: truncated output (original token count: ${Math.ceil(output.length / 4)})\nTotal output lines: ${lines}\n\n${cut}`;
  return `Exit code: ${code ?? "killed"}\nWall time: ${seconds.toFixed(1)} seconds\nOutput:\n${body}`;
}

/** The command line of a `command` array: `bash -lc <script>` runs the script, else words joined. */
function commandLine(command: unknown): string | undefined {
  if (
    !Array.isArray(command) ||
    command.length === 0 ||
    !command.every((c) => typeof c === "string")
  )
    return typeof command === "string" && command.trim() !== "" ? command : undefined;
  const words = command as string[];
  if (/^(ba)?sh$/.test(words[0]!) && /^-l?c$/.test(words[1] ?? "") && words[2]) return words[2];
  return words
    .map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`))
    .join(" ");
}

/**
 * Codex's harness in a project; `toolOutputTokenLimit` is the user's `tool_output_token_limit`
 * (unset: the 10,000-byte default for a model Codex does not know).
 *
 * @example
 * const harness = codex("/tmp/run/project", 1024);
 */
export function codex(project: string, toolOutputTokenLimit?: number): PeerHarness {
  const policy: TruncationPolicy =
    toolOutputTokenLimit === undefined
      ? { bytes: DEFAULT_OUTPUT_BYTES }
      : { tokens: toolOutputTokenLimit };
  return {
    name: "codex",
    tools: [SHELL_TOOL],
    view: async (text) => codexCut(text, policy),
    async run(name, args) {
      if (name !== SHELL_TOOL.name) return `Error: unsupported call: ${name}`;
      const line = commandLine(args.command);
      if (line === undefined) return "Error: command must be a non-empty array of strings";
      const run = await runShell(line, project, PEER_SHELL);
      return execOutput(run.output, run.code, run.seconds, policy);
    },
    async manage(messages, state) {
      if (state.tokens < AUTO_COMPACT_FRACTION * state.window) return messages;
      return compactHistory(messages, state, CODEX_COMPACTION);
    },
  };
}
