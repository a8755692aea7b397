/**
 * Spill to file + preview WITH a shell: the same `<persisted-output>` message as Claude Code's
 * spilling (spill-to-file.ts), and a Bash tool that runs real commands (grep -o, jq, head,
 * tail, sed -n) on the real spilled file, as Claude Code's Bash and Goose's shell do. The
 * output a command prints is capped at 30,000 characters, as Claude Code caps Bash output.
 */
import type { ToolSpec } from "./agents/conversation.js";
import type { PolicyEnv } from "./drive.js";
import type { Prepared } from "./prepared.js";
import { runShell } from "./shell-run.js";
import { spillOutput } from "./spill-to-file.js";

/** Claude Code's default cap on what a Bash command shows the model (BASH_MAX_OUTPUT_LENGTH). */
export const BASH_MAX_OUTPUT_CHARS = 30_000;
const BASH_TIMEOUT_MS = 120_000;

export const BASH_TOOL: ToolSpec = {
  name: "Bash",
  description:
    "Executes a bash command and returns its output (stdout and stderr). Use it to search and read files: grep, jq, head, tail, sed -n, wc. Output over 30000 characters is truncated.",
  parameters: {
    type: "object",
    additionalProperties: false,
    required: ["command"],
    properties: {
      command: { type: "string", description: "The command to execute" },
      timeout: { type: "number", description: "Optional timeout in milliseconds (max 600000)" },
      description: {
        type: "string",
        description: "Clear, concise description of what this command does in 5-10 words",
      },
    },
  },
};

/** Runs one command with bash in `cwd`; stdout and stderr together, capped, with the exit code. */
export async function runBash(command: string, cwd: string): Promise<string> {
  // Keep a little more than the cap so the cut can say how much was left out.
  const run = await runShell(command, cwd, {
    captureBytes: BASH_MAX_OUTPUT_CHARS * 4,
    timeoutMs: BASH_TIMEOUT_MS,
  });
  let text = run.output;
  if (text.length > BASH_MAX_OUTPUT_CHARS || run.totalBytes > BASH_MAX_OUTPUT_CHARS * 4) {
    const left = Math.max(0, run.totalBytes - BASH_MAX_OUTPUT_CHARS);
    text = `${text.slice(0, BASH_MAX_OUTPUT_CHARS)}\n\n... [output truncated: about ${left.toLocaleString("en-US")} more bytes]`;
  }
  const status =
    run.signal !== null
      ? `\n[killed by ${run.signal}]`
      : run.code !== 0
        ? `\n[exit code ${run.code}]`
        : "";
  return `${text.trimEnd()}${status}`;
}

/**
 * Spill to file with a shell, as an environment: fetch shows the `<persisted-output>` message;
 * Bash runs in the spill directory.
 */
export async function shellEnv(p: Prepared, dir: string): Promise<PolicyEnv> {
  const spilled = await spillOutput(p, dir);
  return {
    tools: spilled.path ? [BASH_TOOL] : [],
    fetch: async () => spilled.message,
    run: async (tool, args) => {
      if (tool !== BASH_TOOL.name) return `Error: there is no tool ${tool}.`;
      if (typeof args.command !== "string" || args.command.trim() === "")
        return "Error: Bash needs a non-empty `command` string.";
      return runBash(args.command, dir);
    },
  };
}
