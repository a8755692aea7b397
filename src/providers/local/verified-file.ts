/**
 * Writing a model file so that it appears under its name only when it is whole and its SHA-256
 * is the catalog's: bytes go to a partial file while they are hashed, and the partial file is
 * renamed into place (with a stamp recording the check) or removed.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import type { CatalogModel } from "./catalog.js";

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

/** Why a request or stream failed, in words (offline, refused, reset, or the error's own). */
export function reasonOf(error: unknown): string {
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
 * The partial file a model is written to (`<path>.download-<pid>`): bytes are hashed as they
 * are written, and at most the model's size is accepted. `finish` renames it into place when
 * size and SHA-256 match; otherwise, and on `discard`, nothing is left behind.
 */
export class PartialModelFile {
  readonly #model: CatalogModel;
  readonly #path: string;
  readonly #partial: string;
  #out: WriteStream | undefined;
  readonly #hash = createHash("sha256");
  #written = 0;

  constructor(model: CatalogModel, path: string) {
    this.#model = model;
    this.#path = path;
    this.#partial = `${path}.download-${process.pid}`;
  }

  /** The stream, opened on the first write (so the directory may be made after construction). */
  #stream(): WriteStream {
    this.#out ??= createWriteStream(this.#partial);
    return this.#out;
  }

  /** Bytes written so far. */
  get written(): number {
    return this.#written;
  }

  /** Appends a block; more bytes than the model has is an error (a wrong or hostile source). */
  async write(block: Uint8Array): Promise<void> {
    if (this.#written + block.length > this.#model.bytes) {
      throw new Error(`more than the model's ${this.#model.bytes} bytes arrived`);
    }
    this.#hash.update(block);
    this.#written += block.length;
    const out = this.#stream();
    if (!out.write(block)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }

  /**
   * Closes the file and moves it into place when it is the model; otherwise removes it and
   * returns why (`received N bytes, expected M` or `checksum mismatch: …`).
   */
  async finish(): Promise<{ ok: true; sha256: string } | { ok: false; why: string }> {
    const out = this.#stream();
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    const digest = this.#hash.digest("hex");
    if (this.#written !== this.#model.bytes || digest !== this.#model.sha256) {
      await rm(this.#partial, { force: true });
      return {
        ok: false,
        why:
          this.#written !== this.#model.bytes
            ? `received ${this.#written} bytes, expected ${this.#model.bytes}; nothing was kept`
            : `checksum mismatch: SHA-256 ${digest}, expected ${this.#model.sha256}; nothing was kept`,
      };
    }
    await rename(this.#partial, this.#path);
    const info = await stat(this.#path);
    await writeFile(`${this.#path}.sha256`, `${stampOf(this.#model, info.size, info.mtimeMs)}\n`);
    return { ok: true, sha256: digest };
  }

  /** Closes and removes the partial file. */
  async discard(): Promise<void> {
    const out = this.#out;
    if (out && !out.closed)
      await new Promise<void>((resolve) => out.destroy().once("close", () => resolve()));
    await rm(this.#partial, { force: true });
  }
}
