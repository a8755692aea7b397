/**
 * Finding and loading the config file: `spillway.config.json`, `.yaml` or `.yml`, in the
 * working directory, else in the spillway home.
 */
import { readFile, stat } from "node:fs/promises";
import { dirname, extname, join, resolve } from "node:path";
import { SpillwayError } from "../core/errors.js";
import { resolveHome } from "../core/home.js";
import { CONFIG_FILE_NAMES } from "./config-names.js";
import { configSchema, type LoadedConfig } from "./config-schema.js";
import { parseJsonSource } from "./json-source.js";
import { resolveServerPaths } from "./mcp-server-schema.js";
import { problemsFromIssues, throwProblems } from "./problems.js";
import { literalSecretProblems } from "./secrets.js";
import { checkSourceSize } from "./source-size.js";
import { parseYamlSource } from "./yaml-source.js";

export { CONFIG_FILE_NAMES };

/** Where to look for the config file. */
export interface FindConfigFileOptions {
  /** Looked in first; default `process.cwd()`. */
  cwd?: string;
  /** Looked in second; default `$SPILLWAY_HOME`, else `~/.spillway`. */
  home?: string;
  /** For `$SPILLWAY_HOME`; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

const SUBJECT = "config file";

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw new SpillwayError(
      "CONFIG_INVALID",
      `config file could not be checked: ${path} (${code ?? String(cause)})`,
      { file: path, ...(code ? { code } : {}) },
      { cause },
    );
  }
}

/**
 * The config file to use: the one in `cwd`, else the one in `home`, else `undefined`. Two
 * config files in the same folder are an error naming both.
 *
 * @example
 * await findConfigFile({ cwd: "/work/project" });
 * // "/work/project/spillway.config.yaml" or "/home/me/.spillway/spillway.config.json" or undefined
 */
export async function findConfigFile(
  options: FindConfigFileOptions = {},
): Promise<string | undefined> {
  const folders = [resolve(options.cwd ?? process.cwd()), resolveHome(options.home, options.env)];
  for (const folder of new Set(folders)) {
    const found: string[] = [];
    for (const name of CONFIG_FILE_NAMES) {
      const path = join(folder, name);
      if (await isFile(path)) found.push(path);
    }
    if (found.length > 1) {
      throw new SpillwayError(
        "CONFIG_INVALID",
        `Found ${found.length} config files in ${folder}: ${found.join(" and ")}; spillway reads ` +
          "one config file per folder, so keep one and delete or rename the other.",
        { folder, files: found },
      );
    }
    if (found[0] !== undefined) return found[0];
  }
  return undefined;
}

/**
 * Loads and validates a config file (JSON for `.json`, else YAML). Invalid files throw
 * `CONFIG_INVALID` naming the file, the key path, the line, the value and what is allowed;
 * a literal API key or token is rejected (use `apiKeyEnv: "VAR_NAME"`).
 *
 * @example
 * // spillway.config.yaml:
 * // providers:
 * //   openai-compatible:
 * //     vllm: { baseURL: "http://localhost:8000/v1" }
 * // defaults:
 * //   maxTurns: 30
 * const loaded = await loadConfigFile("spillway.config.yaml");
 * loaded.config.defaults.maxTurns; // 30
 */
export async function loadConfigFile(path: string): Promise<LoadedConfig> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const message =
      code === "ENOENT" || code === "ENOTDIR"
        ? `config file not found: ${file}`
        : `config file could not be read: ${file} (${code ?? String(cause)})`;
    throw new SpillwayError(
      "CONFIG_INVALID",
      message,
      { file, ...(code ? { code } : {}) },
      {
        cause,
      },
    );
  }
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const format = extname(file).toLowerCase() === ".json" ? "json" : "yaml";
  const source = { file, code: "CONFIG_INVALID" as const, subject: SUBJECT };
  checkSourceSize(text, source);
  const parsed = format === "json" ? parseJsonSource(text, source) : parseYamlSource(text, source);
  const data = parsed.data ?? {};
  const secrets = literalSecretProblems(data, parsed.locate);
  if (secrets.length > 0) throwProblems("CONFIG_INVALID", SUBJECT, file, secrets);
  const result = configSchema.safeParse(data);
  if (!result.success) {
    throwProblems(
      "CONFIG_INVALID",
      SUBJECT,
      file,
      problemsFromIssues(result.error.issues, data, parsed.locate),
    );
  }
  const config = {
    ...result.data,
    mcpServers: resolveServerPaths(result.data.mcpServers, dirname(file)),
  };
  return { path: file, format, config };
}

/**
 * Finds and loads the config file; `undefined` when there is none. An explicit `path` is
 * loaded instead of looking (and must exist).
 *
 * @example
 * const config = await loadConfig({ cwd: process.cwd() });
 */
export async function loadConfig(
  options: FindConfigFileOptions & { path?: string } = {},
): Promise<LoadedConfig | undefined> {
  const path = options.path ?? (await findConfigFile(options));
  return path === undefined ? undefined : loadConfigFile(path);
}
