/**
 * Where a session's agent comes from over HTTP: a file under the server's agents directory
 * (nothing outside it, symlinks included), or inline Markdown with frontmatter. Inline agents
 * may name MCP servers from the server's config file but may not declare commands to run
 * (unless the server allows it), and their sub-agents must be files under the agents
 * directory: a request never makes the server run a program it was not configured with.
 */
import { realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { AgentDefinition } from "../config/agent-file.js";
import { HttpProblem } from "./problem.js";

export type AgentInput =
  | { readonly path: string }
  | { readonly markdown: string; readonly name?: string | undefined };

export interface AgentSourceOptions {
  /** Absolute directory agent paths resolve in. */
  readonly agentsDir: string;
  /** Inline agents may declare MCP server commands (off by default). */
  readonly allowInlineCommands: boolean;
}

function outside(field: string, given: string): HttpProblem {
  return new HttpProblem(
    400,
    "INVALID_ARGUMENT",
    `${field} must name a Markdown file under the server's agents directory (got ${JSON.stringify(given)}); the directory is set with --agents-dir.`,
    { field },
  );
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

async function realAgentsDir(options: AgentSourceOptions): Promise<string> {
  return realpath(options.agentsDir);
}

/** Resolves an agent path: relative to the agents directory, and inside it once resolved. */
async function agentFile(options: AgentSourceOptions, given: string): Promise<string> {
  const field = "body.agent.path";
  if (!given.endsWith(".md")) throw outside(field, given);
  const dir = await realAgentsDir(options);
  const lexical = resolve(dir, given);
  if (!inside(dir, lexical)) throw outside(field, given);
  let real: string;
  try {
    real = await realpath(lexical);
    if (!(await stat(real)).isFile()) throw outside(field, given);
  } catch (error) {
    if (error instanceof HttpProblem) throw error;
    throw new HttpProblem(
      400,
      "AGENT_FILE_INVALID",
      `agent file not found: ${given} (under the agents directory)`,
      {
        field,
        path: given,
      },
    );
  }
  if (!inside(dir, real)) throw outside(field, given);
  return real;
}

async function checkSubagents(options: AgentSourceOptions, agent: AgentDefinition): Promise<void> {
  const dir = await realAgentsDir(options);
  for (const [index, path] of (agent.frontmatter.agents ?? []).entries()) {
    const real = await realpath(path);
    if (!inside(dir, real)) throw outside(`body.agent.markdown: agents.${index}`, path);
  }
}

/**
 * The agent definition a request names.
 *
 * @example
 * const agent = await resolveAgent({ agentsDir: "/srv/agents", allowInlineCommands: false }, { path: "triage.md" });
 */
export async function resolveAgent(
  options: AgentSourceOptions,
  input: AgentInput,
): Promise<AgentDefinition> {
  const { loadAgentFile, parseAgentFile } = await import("../config/agent-file.js");
  if ("path" in input) return loadAgentFile(await agentFile(options, input.path));
  const dir = await realAgentsDir(options);
  const agent = await parseAgentFile(input.markdown, join(dir, `${input.name ?? "inline"}.md`));
  const servers = agent.frontmatter.mcpServers;
  if (servers && !Array.isArray(servers) && !options.allowInlineCommands) {
    throw new HttpProblem(
      400,
      "INVALID_ARGUMENT",
      "body.agent.markdown: mcpServers may only name servers from the server's config file (a list of names) in an inline agent; to run commands, put the agent file in the agents directory (or start the server with --allow-inline-commands).",
      { field: "body.agent.markdown", key: "mcpServers" },
    );
  }
  await checkSubagents(options, agent);
  return agent;
}
