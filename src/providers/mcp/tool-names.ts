/**
 * Namespaced tool names that every model provider accepts.
 *
 * MCP allows tool names of up to 128 characters including ".", but OpenAI and Anthropic accept
 * only `^[a-zA-Z0-9_-]{1,64}$`. A tool is exposed as `server__tool`; a name that is too long,
 * has other characters, or collides is made safe and the mapping to the original is kept.
 */

import { createHash } from "node:crypto";

/** Server names are used as prefixes as they are, so they must already be safe. */
export const SERVER_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

/** The longest tool name providers accept. */
export const MAX_TOOL_NAME_LENGTH = 64;

const SAFE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const HASH_LENGTH = 8;

/** A tool's namespaced name and the name it has on its server. */
export type NamedTool = { name: string; server: string; toolName: string };

/**
 * Assigns a unique, provider-safe name to every `(server, toolName)` pair.
 *
 * Names that are safe as they are get exactly `server__tool` first, so a safe name never
 * changes because of another tool. The others get unsafe characters replaced by "_" and, when
 * that is too long or already taken, a cut plus "_" and 8 hex digits of SHA-256 of the original.
 *
 * @example
 * namespaceTools([{ server: "fs", toolName: "read.file" }]);
 * // [{ name: "fs__read_file", server: "fs", toolName: "read.file" }]
 */
export function namespaceTools(tools: { server: string; toolName: string }[]): NamedTool[] {
  const taken = new Set<string>();
  const names = new Map<number, string>();
  tools.forEach((tool, index) => {
    const plain = `${tool.server}__${tool.toolName}`;
    if (SAFE_NAME.test(plain) && !taken.has(plain)) {
      taken.add(plain);
      names.set(index, plain);
    }
  });
  tools.forEach((tool, index) => {
    if (names.has(index)) return;
    const name = safeName(tool.server, tool.toolName, taken);
    taken.add(name);
    names.set(index, name);
  });
  return tools.map((tool, index) => ({ ...tool, name: names.get(index)! }));
}

function safeName(server: string, toolName: string, taken: Set<string>): string {
  const cleaned = `${server}__${toolName.replace(/[^a-zA-Z0-9_-]/g, "_")}`;
  if (cleaned.length <= MAX_TOOL_NAME_LENGTH && !taken.has(cleaned)) return cleaned;
  const digest = createHash("sha256").update(`${server}\0${toolName}`).digest("hex");
  for (let offset = 0; offset + HASH_LENGTH <= digest.length; offset++) {
    const suffix = `_${digest.slice(offset, offset + HASH_LENGTH)}`;
    const name = `${cleaned.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(name)) return name;
  }
  throw new Error(`no unique name left for tool "${toolName}" of MCP server "${server}"`);
}
