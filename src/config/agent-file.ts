/**
 * Agent files: Markdown with YAML frontmatter (settings) and a body (the system prompt).
 */
import { readFile, stat } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { SpillwayError } from "../core/errors.js";
import { splitFrontmatter } from "./frontmatter.js";
import { type FrontmatterValues, frontmatterSchema } from "./frontmatter-schema.js";
import { resolveServerPaths } from "./mcp-server-schema.js";
import { type ConfigProblem, type Locate, problemsFromIssues, throwProblems } from "./problems.js";
import { checkSourceSize } from "./source-size.js";
import { parseYamlSource } from "./yaml-source.js";

/**
 * Validated frontmatter. After loading, `agents` are absolute paths of existing files and
 * every `mcpServers` `cwd` is absolute.
 */
export type AgentFrontmatter = FrontmatterValues;

/** An agent as declared by its file. */
export interface AgentDefinition {
  /** Absolute path of the agent file. */
  path: string;
  /** The file name without `.md`, e.g. `researcher` for `agents/researcher.md`. */
  name: string;
  description?: string;
  /** The Markdown body, trimmed. */
  systemPrompt: string;
  frontmatter: AgentFrontmatter;
}

const SUBJECT = "agent file";

async function readAgentText(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const message =
      code === "ENOENT" || code === "ENOTDIR"
        ? `agent file not found: ${file}`
        : code === "EISDIR"
          ? `agent file is a directory, not a Markdown file: ${file}`
          : `agent file could not be read: ${file} (${code ?? String(cause)})`;
    throw new SpillwayError(
      "AGENT_FILE_INVALID",
      message,
      { file, ...(code ? { code } : {}) },
      {
        cause,
      },
    );
  }
}

async function missingAgentProblems(
  agents: readonly string[],
  resolved: readonly string[],
  locate: Locate,
): Promise<ConfigProblem[]> {
  const problems: ConfigProblem[] = [];
  for (const [index, path] of resolved.entries()) {
    let problem: string | undefined;
    try {
      if (!(await stat(path)).isFile()) problem = `sub-agent path is not a file: ${path}`;
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw cause;
      problem = `sub-agent file not found: ${path}`;
    }
    if (problem !== undefined) {
      const line = locate(["agents", index]);
      problems.push({
        key: `agents.${index}`,
        ...(line !== undefined ? { line } : {}),
        value: agents[index],
        text: `${problem} (paths are relative to the agent file's folder)`,
      });
    }
  }
  return problems;
}

/**
 * Reads and validates an agent file given its text (`path` locates it: relative paths inside
 * resolve against its folder). Sub-agent files must exist.
 *
 * @example
 * const agent = await parseAgentFile("---\nmaxTurns: 5\n---\nBe terse.", "/agents/a.md");
 * agent.systemPrompt; // "Be terse."
 */
export async function parseAgentFile(text: string, path: string): Promise<AgentDefinition> {
  const file = resolve(path);
  const parts = splitFrontmatter(text);
  if (parts.unclosed) {
    throw new SpillwayError(
      "AGENT_FILE_INVALID",
      `Invalid agent file ${file}: the frontmatter opened by "---" on line 1 has no closing ` +
        '"---" line; end it with a line of "---" before the system prompt.',
      { file, line: 1 },
    );
  }
  let data: unknown = {};
  let locate: Locate = () => undefined;
  if (parts.frontmatter !== undefined) {
    checkSourceSize(parts.frontmatter, {
      file,
      code: "AGENT_FILE_INVALID",
      subject: SUBJECT,
      part: "frontmatter",
    });
    const parsed = parseYamlSource(parts.frontmatter, {
      file,
      code: "AGENT_FILE_INVALID",
      subject: SUBJECT,
      lineOffset: parts.frontmatterLineOffset,
      part: "frontmatter",
    });
    data = parsed.data ?? {};
    locate = parsed.locate;
  }
  const result = frontmatterSchema.safeParse(data);
  if (!result.success) {
    throwProblems(
      "AGENT_FILE_INVALID",
      SUBJECT,
      file,
      problemsFromIssues(result.error.issues, data, locate),
    );
  }
  const frontmatter: AgentFrontmatter = { ...result.data };
  const folder = dirname(file);
  if (frontmatter.agents) {
    const agents = frontmatter.agents.map((agent) => resolve(folder, agent));
    const problems = await missingAgentProblems(frontmatter.agents, agents, locate);
    if (problems.length > 0) throwProblems("AGENT_FILE_INVALID", SUBJECT, file, problems);
    frontmatter.agents = agents;
  }
  if (frontmatter.mcpServers && !Array.isArray(frontmatter.mcpServers)) {
    frontmatter.mcpServers = resolveServerPaths(frontmatter.mcpServers, folder);
  }
  return {
    path: file,
    name: basename(file, ".md"),
    ...(frontmatter.description !== undefined ? { description: frontmatter.description } : {}),
    systemPrompt: parts.body.trim(),
    frontmatter,
  };
}

/**
 * Loads an agent file: Markdown whose YAML frontmatter (between `---` lines, optional) holds
 * settings and whose body is the system prompt. Invalid files throw `AGENT_FILE_INVALID`
 * naming the file, the key path, the line, the value and what is allowed (`UNKNOWN_PROVIDER`
 * for a model of an unknown provider).
 *
 * @example
 * // researcher.md:
 * // ---
 * // description: Finds things out
 * // models: [openai/gpt-4.1, ollama/qwen2.5:7b]
 * // maxTurns: 30
 * // ---
 * // You are a careful researcher.
 * const agent = await loadAgentFile("agents/researcher.md");
 * agent.name; // "researcher"
 * agent.frontmatter.models?.[0]?.provider; // "openai"
 */
export async function loadAgentFile(path: string): Promise<AgentDefinition> {
  const file = resolve(path);
  return parseAgentFile(await readAgentText(file), file);
}
