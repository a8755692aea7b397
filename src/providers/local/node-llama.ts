/**
 * node-llama-cpp, loaded on demand. It is an optional peer dependency: a user of a hosted
 * model never downloads its native binaries, and asking for a `local/…` model without it
 * says the one command that adds it.
 */
import { SpillwayError } from "../../core/errors.js";

export type NodeLlamaModule = typeof import("node-llama-cpp");

/** The command that adds the local model runtime. */
export const INSTALL_COMMAND = "npm install node-llama-cpp";

let loading: Promise<NodeLlamaModule> | undefined;

function isMissingModule(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/**
 * Imports node-llama-cpp once per process. Missing: DEPENDENCY_MISSING with the install
 * command. `importer` is injectable for tests.
 *
 * @example
 * const { getLlama } = await importNodeLlama();
 */
export function importNodeLlama(
  importer?: () => Promise<NodeLlamaModule>,
): Promise<NodeLlamaModule> {
  if (importer) return wrapImport(importer);
  loading ??= wrapImport(() => import("node-llama-cpp")).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function wrapImport(importer: () => Promise<NodeLlamaModule>): Promise<NodeLlamaModule> {
  try {
    return await importer();
  } catch (error) {
    if (isMissingModule(error)) {
      throw new SpillwayError(
        "DEPENDENCY_MISSING",
        `Local models (local/…) run in-process through node-llama-cpp, which is not installed. Add it with: ${INSTALL_COMMAND}`,
        { package: "node-llama-cpp", install: INSTALL_COMMAND },
        { cause: error },
      );
    }
    throw error;
  }
}
