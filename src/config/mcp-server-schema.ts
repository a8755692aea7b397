/**
 * MCP server specs: a local server process (`command`) or a remote server (`url`).
 */
import { isAbsolute, resolve } from "node:path";
import { z } from "zod";
import { NAME_PATTERN } from "./model-ref.js";
import {
  addIssue,
  either,
  httpUrl,
  isPlainObject,
  strictObject,
  string,
  stringMap,
} from "./schema-helpers.js";

/** A local MCP server started as a process speaking MCP over stdio. */
export interface McpStdioServerSpec {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  /** Absolute after loading (a relative `cwd` resolves against the declaring file's folder). */
  cwd?: string;
  /** Only these of the server's tools are offered to the model (names without the prefix). */
  tools?: string[];
  /** Arguments left out of a tool's schema and refused in its calls, by tool name. */
  hideArguments?: Record<string, string[]>;
}

/** A remote MCP server reached over Streamable HTTP. */
export interface McpHttpServerSpec {
  url: string;
  headers?: Record<string, string>;
  /** Only these of the server's tools are offered to the model (names without the prefix). */
  tools?: string[];
  /** Arguments left out of a tool's schema and refused in its calls, by tool name. */
  hideArguments?: Record<string, string[]>;
}

/** One MCP server; tell the forms apart with `"command" in spec`. */
export type McpServerSpec = McpStdioServerSpec | McpHttpServerSpec;

const STDIO_ONLY = ["args", "env", "cwd"] as const;

/** An MCP server name: letters, digits, `_` and `-` (it prefixes the server's tool names). */
export const serverNameSchema = z
  .string({ error: 'a server name of letters, digits, "_" and "-"' })
  .regex(NAME_PATTERN, { error: 'a server name of letters, digits, "_" and "-"' });

/** One server spec, checked to be exactly one of the two forms. */
export const mcpServerSpecSchema = strictObject(
  {
    command: string().optional(),
    args: z.array(z.string({ error: "a string" }), { error: "a list of strings" }).optional(),
    env: stringMap("environment variable names").optional(),
    cwd: string().optional(),
    url: httpUrl().optional(),
    headers: stringMap("HTTP header names").optional(),
    tools: z
      .array(z.string({ error: "a tool name" }), { error: "a list of tool names" })
      .optional(),
    hideArguments: z
      .record(
        z.string({ error: "a tool name" }),
        z.array(z.string({ error: "an argument name" }), { error: "a list of argument names" }),
        {
          error:
            "a mapping of tool name to a list of argument names, e.g. { read_text_file: [head, tail] }",
        },
      )
      .optional(),
  },
  "a server spec: a mapping",
).transform((spec, ctx): McpServerSpec => {
  if (spec.command !== undefined && spec.url !== undefined) {
    addIssue(
      ctx,
      "set either command (a local server process) or url (a remote server), not both",
      { sentence: true },
    );
    return z.NEVER;
  }
  if (spec.url !== undefined) {
    const misplaced = STDIO_ONLY.filter((key) => spec[key] !== undefined);
    for (const key of misplaced) {
      addIssue(
        ctx,
        `${key} applies only to a local server (command); a url server takes url and headers`,
        { sentence: true },
        [key],
      );
    }
    if (misplaced.length > 0) return z.NEVER;
    return {
      url: spec.url,
      ...(spec.headers ? { headers: spec.headers } : {}),
      ...(spec.tools ? { tools: spec.tools } : {}),
      ...(spec.hideArguments ? { hideArguments: spec.hideArguments } : {}),
    };
  }
  if (spec.command === undefined) {
    addIssue(
      ctx,
      'needs command (a local server process, e.g. command: "npx") or url (a remote server, ' +
        'e.g. url: "https://example.com/mcp")',
      { sentence: true },
    );
    return z.NEVER;
  }
  if (spec.headers !== undefined) {
    addIssue(
      ctx,
      "headers apply only to a url server; a local server takes args, env and cwd",
      {
        sentence: true,
      },
      ["headers"],
    );
    return z.NEVER;
  }
  return {
    command: spec.command,
    ...(spec.args ? { args: spec.args } : {}),
    ...(spec.env ? { env: spec.env } : {}),
    ...(spec.cwd ? { cwd: spec.cwd } : {}),
    ...(spec.tools ? { tools: spec.tools } : {}),
    ...(spec.hideArguments ? { hideArguments: spec.hideArguments } : {}),
  };
});

/** A mapping of server name to server spec. */
export const mcpServerMapSchema = z.record(serverNameSchema, mcpServerSpecSchema, {
  error:
    "a mapping of server name to server spec ({ command, args, env, cwd } or { url, headers }, each with optional tools and hideArguments)",
});

/** In an agent file: server specs, or the names of servers defined in the config file. */
export const mcpServersSettingSchema = either(
  (value) => (Array.isArray(value) ? "a" : isPlainObject(value) ? "b" : undefined),
  z.array(serverNameSchema),
  mcpServerMapSchema,
  "a mapping of server name to server spec, or a list of server names defined in the config file",
);

/**
 * Makes every relative `cwd` absolute against `baseDir` (the folder of the file that declared
 * the servers).
 *
 * @example
 * resolveServerPaths({ fs: { command: "npx", cwd: "data" } }, "/agents");
 * // { fs: { command: "npx", cwd: "/agents/data" } }
 */
export function resolveServerPaths(
  servers: Record<string, McpServerSpec>,
  baseDir: string,
): Record<string, McpServerSpec> {
  const resolved: Record<string, McpServerSpec> = {};
  for (const [name, spec] of Object.entries(servers)) {
    resolved[name] =
      "command" in spec && spec.cwd !== undefined && !isAbsolute(spec.cwd)
        ? { ...spec, cwd: resolve(baseDir, spec.cwd) }
        : spec;
  }
  return resolved;
}
