/**
 * Deterministic benchmark fixtures, written once to `.bench-fixtures/` and reused while they
 * have their exact nominal size (1 MB = 2^20 bytes).
 */
import { mkdir, open, readFile, rename, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { seedOf } from "../src/core/rng.js";
import { generateOutputBlocks } from "../src/core/synthetic/generate.js";
import {
  FIXTURE_EXTENSIONS,
  type FixtureKind,
  GENERATOR_KIND,
  NEEDLE,
  needleText,
} from "./fixture-content.js";

export { FIXTURE_KINDS, type FixtureKind, NEEDLE } from "./fixture-content.js";

export const MB = 1024 * 1024;
/** Bump when the generators change so stale fixtures are not reused. */
const GENERATOR_VERSION = 2;
const WRITE_BATCH_BYTES = 8 * MB;

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const FIXTURE_DIR = join(PROJECT_ROOT, ".bench-fixtures");

export interface Fixture {
  readonly kind: FixtureKind;
  readonly mb: number;
  readonly path: string;
  readonly bytes: number;
  /** True when the file was generated in this run (false: reused). */
  readonly generated: boolean;
  readonly generateMs: number;
}

export function fixturePath(kind: FixtureKind, mb: number): string {
  return join(FIXTURE_DIR, `${kind}-${mb}mb.v${GENERATOR_VERSION}.${FIXTURE_EXTENSIONS[kind]}`);
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}

/** Writes a fixture of exactly `target` bytes to `path` (via a temp file and rename). */
async function generate(kind: FixtureKind, mb: number, path: string): Promise<void> {
  const target = mb * MB;
  const layout = { byteLength: 0, needleByteOffset: undefined, needleLine: undefined };
  const blocks = generateOutputBlocks(
    {
      bytes: target,
      kind: GENERATOR_KIND[kind],
      needle: needleText(kind),
      needleAt: 0.5,
      seed: seedOf(`${kind}/${mb}`),
    },
    layout,
  );
  const temp = `${path}.${process.pid}.part`;
  const handle = await open(temp, "w");
  try {
    let batch: string[] = [];
    let batchBytes = 0;
    for (const block of blocks) {
      batch.push(block);
      batchBytes += block.length;
      if (batchBytes >= WRITE_BATCH_BYTES) {
        await handle.writeFile(batch.join(""));
        batch = [];
        batchBytes = 0;
      }
    }
    await handle.writeFile(batch.join(""));
    if (layout.byteLength !== target)
      throw new Error(`${kind}: generated ${layout.byteLength} bytes, wanted ${target}`);
  } finally {
    await handle.close();
  }
  const written = await sizeOf(temp);
  if (written !== target) throw new Error(`${temp}: ${written} bytes on disk, wanted ${target}`);
  await rename(temp, path);
}

/** The fixture of a kind and size, generated unless a file of the right size exists. */
export async function ensureFixture(kind: FixtureKind, mb: number): Promise<Fixture> {
  await mkdir(FIXTURE_DIR, { recursive: true });
  const path = fixturePath(kind, mb);
  const bytes = mb * MB;
  if ((await sizeOf(path)) === bytes) {
    return { kind, mb, path, bytes, generated: false, generateMs: 0 };
  }
  const started = performance.now();
  await generate(kind, mb, path);
  return { kind, mb, path, bytes, generated: true, generateMs: performance.now() - started };
}

/**
 * A fixture as one flat JS string, the way a tool result arrives (e.g. from JSON.parse).
 * Not `fs.promises.readFile(path, "utf8")`: for large files that returns a rope of chunks
 * which V8 flattens (a full copy) on the first slice, inside whatever is measured next.
 */
export async function readFixtureText(path: string): Promise<string> {
  return (await readFile(path)).toString("utf8");
}

/** Where the needle is: its byte offset, 1-based line, and how often it occurs. */
export function locateNeedle(bytes: Buffer): { byte: number; line: number; count: number } {
  const needle = Buffer.from(NEEDLE);
  const byte = bytes.indexOf(needle);
  let count = 0;
  for (let at = byte; at !== -1; at = bytes.indexOf(needle, at + needle.byteLength)) count++;
  let line = 1;
  for (let at = bytes.indexOf(10); at !== -1 && at < byte; at = bytes.indexOf(10, at + 1)) line++;
  return { byte, line, count };
}
