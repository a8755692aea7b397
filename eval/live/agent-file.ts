/**
 * The agent every policy plays: a plain agent file as a user writes one, the real file server
 * with its one reading tool, every argument visible, and a prompt that names the file and the
 * question and nothing else (no tool, mode or pattern).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { FILE_SERVER_PATH, FILE_TOOL } from "./file-server.js";

/** The agent's instructions, the same for every policy (spillway's file body; the peers' system prompt). */
export const AGENT_INSTRUCTIONS =
  "You answer questions about files. Read the file the question names with the file tools, " +
  "find the answer in it, and report it exactly as the file writes it. Never guess.";

/**
 * The directory the file server may read, under the run's work directory: it holds `data/`, the
 * tasks' files; a question names a file by its path in it (`data/01-app.log`), which the server
 * resolves against it. The store and the peers' spilled files live beside it, out of reach.
 */
export const PROJECT_DIR = "project";

/** Turns a session may take, the same for every policy. */
export const LIVE_MAX_TURNS = 8;

/**
 * Writes `agent.md` in `runDir`: the file server over `runDir/project`, started in `runDir`.
 *
 * @example
 * const path = await writeAgentFile("/tmp/run");
 */
export async function writeAgentFile(runDir: string): Promise<string> {
  const path = join(runDir, "agent.md");
  await writeFile(
    path,
    [
      "---",
      "description: Answers questions about files",
      "mcpServers:",
      "  fs:",
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(FILE_SERVER_PATH)}, "./${PROJECT_DIR}"]`,
      "    cwd: .",
      `    tools: [${FILE_TOOL}]`,
      `maxTurns: ${LIVE_MAX_TURNS}`,
      "---",
      AGENT_INSTRUCTIONS,
      "",
    ].join("\n"),
  );
  return path;
}
