import type { McpServerSpec } from "../config/index.js";
import { SpillwayError } from "../core/errors.js";

/**
 * `mcpServers.<name>.hideArguments`: arguments of an MCP tool the agent's author keeps from the
 * model. They are left out of the tool's schema, and a call that passes one anyway is refused
 * with an error naming it, before the tool runs. Why: an argument that narrows what a tool
 * returns (`head` and `tail` of the filesystem server's `read_text_file`) lets a model that was
 * told to read everything read a part and report from it as if it were the whole.
 */

type JsonSchema = Record<string, unknown>;

const propertiesOf = (schema: JsonSchema): Record<string, unknown> =>
  typeof schema.properties === "object" && schema.properties !== null
    ? (schema.properties as Record<string, unknown>)
    : {};

/**
 * The tool's input schema without the hidden arguments. A hidden argument the tool requires, or
 * one it does not have, is a configuration error (the call could never be made, or the name is a
 * typo): it names the server, the tool and the arguments the tool has.
 *
 * @example
 * schemaWithout({ type: "object", properties: { path: {}, tail: {} }, required: ["path"] }, ["tail"], "fs", "read_text_file");
 * // { type: "object", properties: { path: {} }, required: ["path"] }
 */
export function schemaWithout(
  schema: JsonSchema,
  hidden: readonly string[],
  server: string,
  tool: string,
): JsonSchema {
  const properties = propertiesOf(schema);
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const where = `mcpServers.${server}.hideArguments.${tool}`;
  const known = Object.keys(properties);
  for (const name of hidden) {
    if (!(name in properties))
      throw new SpillwayError(
        "CONFIG_INVALID",
        `${where}: ${tool} has no argument "${name}"; its arguments are ${known.join(", ") || "none"}.`,
        { server, tool, argument: name, valid: known },
      );
    if (required.includes(name))
      throw new SpillwayError(
        "CONFIG_INVALID",
        `${where}: "${name}" is required by ${tool}, so it cannot be hidden; optional arguments: ${known.filter((k) => !required.includes(k)).join(", ") || "none"}.`,
        { server, tool, argument: name },
      );
  }
  const kept = Object.fromEntries(Object.entries(properties).filter(([k]) => !hidden.includes(k)));
  return { ...schema, properties: kept };
}

/**
 * Why a call's arguments are refused: the hidden ones it passes, and what the model may pass.
 *
 * @example
 * hiddenArgumentsError({ path: "app.log", tail: 10 }, ["head", "tail"], "fs__read_text_file", ["path"]);
 * // 'fs__read_text_file does not take "tail" here. Call it again without it; its arguments: path.'
 */
export function hiddenArgumentsError(
  args: unknown,
  hidden: readonly string[],
  toolName: string,
  offered: readonly string[],
): string | undefined {
  if (typeof args !== "object" || args === null) return undefined;
  const passed = hidden.filter((name) => name in args);
  if (passed.length === 0) return undefined;
  const names = passed.map((name) => JSON.stringify(name)).join(" and ");
  return `${toolName} does not take ${names} here. Call it again without ${passed.length > 1 ? "them" : "it"}; its arguments: ${offered.join(", ") || "none"}.`;
}

/** A hideArguments key must name a tool the server offers here (a typo would hide nothing). */
export function checkHiddenToolNames(
  servers: Readonly<Record<string, McpServerSpec>>,
  offered: readonly { readonly server: string; readonly toolName: string }[],
): void {
  for (const [server, spec] of Object.entries(servers)) {
    const names = offered.filter((info) => info.server === server).map((info) => info.toolName);
    // A server that did not connect lists no tools; its failure is reported on its own.
    if (names.length === 0) continue;
    for (const tool of Object.keys(spec.hideArguments ?? {}))
      if (!names.includes(tool))
        throw new SpillwayError(
          "CONFIG_INVALID",
          `mcpServers.${server}.hideArguments: ${server} offers no tool "${tool}" here; its tools: ${names.join(", ")}.`,
          { server, tool, valid: names },
        );
  }
}
