/**
 * `outputs export`: the raw stored bytes to stdout, block by block (never the whole output in
 * memory), hashed on the way. If the bytes do not hash to the record's SHA-256 the command
 * fails with STORE_CORRUPT after writing them, so `spillway outputs export ID > file` never
 * passes off corrupt content silently.
 */
import { createHash } from "node:crypto";
import { StoreCorruptError } from "../core/errors.js";
import { type CliContext, OWNER_SCOPE, withStore } from "./context.js";
import { EXIT_OK, UsageError } from "./errors.js";

const BLOCK_BYTES = 1024 * 1024;

export async function exportOutput(context: CliContext, id: string): Promise<number> {
  if (context.json) {
    throw new UsageError(
      "export writes the raw stored bytes, so it has no --json form; use `outputs verify --json` " +
        "for the checked hash, or `outputs page --json` to read content as JSON",
    );
  }
  await withStore(context, async (store) => {
    const output = await store.open(id, OWNER_SCOPE);
    const hash = createHash("sha256");
    let written = 0;
    try {
      const size = output.source.size;
      while (written < size) {
        const block = await output.source.read(written, Math.min(BLOCK_BYTES, size - written));
        if (block.byteLength === 0) break;
        hash.update(block);
        written += block.byteLength;
        await context.out.content(block, written >= size);
      }
    } finally {
      await output.close();
    }
    const actual = hash.digest("hex");
    if (actual !== output.record.sha256 || written !== output.record.byteSize) {
      throw new StoreCorruptError(
        `The exported bytes of output "${id}" (${written} bytes, sha256 ${actual}) do not match ` +
          `its record (${output.record.byteSize} bytes, sha256 ${output.record.sha256}); ` +
          "the stored payload is corrupt.",
        {
          outputId: id,
          expectedSha256: output.record.sha256,
          actualSha256: actual,
          expectedBytes: output.record.byteSize,
          actualBytes: written,
        },
      );
    }
    await store.countRead(id);
  });
  return EXIT_OK;
}
