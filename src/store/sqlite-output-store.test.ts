// What every engine must do is the contract in test/contract/output-store.contract.test.ts;
// this file keeps what is SQLite's own: blob files, their modes, directories, files on disk.
import { readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { chunks, errorOf, origin, SCOPE, sha, tempStore } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { readOutput } from "../retrieval/read-output.js";
import { openSqliteOutputStore } from "./sqlite-output-store.js";

describe("SqliteOutputStore.put", () => {
  it("gives each output an unguessable id, even for identical content", async () => {
    const { store } = await tempStore();
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await store.put(origin(), "same")).id);
    expect(ids.size).toBe(20);
  });

  it("deduplicates payloads by SHA-256 and keeps large ones as private blob files", async () => {
    const { store, home } = await tempStore({ inlineMaxBytes: 1024 });
    const big = "x".repeat(10_000);
    const a = await store.put(origin(), big);
    const b = await store.put(origin("other__tool"), big);
    expect(a.sha256).toBe(b.sha256);
    const shard = join(home, "blobs", a.sha256!.slice(0, 2));
    expect(await readdir(shard)).toEqual([a.sha256]);
    expect((await stat(join(shard, a.sha256!))).mode & 0o777).toBe(0o600);
    expect((await stat(shard)).mode & 0o777).toBe(0o700);
    expect((await stat(home)).mode & 0o777).toBe(0o700);
    expect((await stat(join(home, "spillway.db"))).mode & 0o777).toBe(0o600);
    expect(await readdir(join(home, "tmp"))).toEqual([]);
    // Small payloads live inline: no blob file for them, same reads.
    const small = await store.put(origin(), "tiny");
    expect(await readdir(join(home, "blobs"))).toEqual([a.sha256!.slice(0, 2)]);
    expect((await readOutput(store, small.id, SCOPE, { mode: "raw" })).text).toBe("tiny");
    expect((await readOutput(store, b.id, SCOPE, { mode: "raw" })).text).toBe(big);
  });

  it("stores bytes that are not UTF-8 as binary, readable as base64", async () => {
    const { store } = await tempStore();
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x01]);
    const record = await store.put(origin(), bytes);
    expect(record).toMatchObject({
      kind: "binary",
      byteSize: 8,
      charCount: 0,
      lineCount: 0,
      sha256: sha(bytes),
    });
    const raw = await readOutput(store, record.id, SCOPE, { mode: "raw" });
    expect(raw.encoding).toBe("base64");
    expect(Buffer.from(raw.text, "base64")).toEqual(Buffer.from(bytes));
  });

  it("stores declared binary content (an MCP image) as bytes even when it decodes as UTF-8", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), Buffer.from("GIF89a"), {
      binary: true,
      mediaType: "image/gif",
    });
    expect(record.kind).toBe("binary");
    expect(record.mediaType).toBe("image/gif");
  });

  it("decodes UTF-8 split across streamed byte chunks, and detects binary late in a stream", async () => {
    const { store } = await tempStore();
    const euro = Buffer.from("price: 5€\n");
    const split = await store.put(origin(), chunks([euro.subarray(0, 9), euro.subarray(9)]));
    expect(split.kind).not.toBe("binary");
    expect((await readOutput(store, split.id, SCOPE, { mode: "raw" })).text).toBe("price: 5€\n");
    const late = await store.put(
      origin(),
      chunks([Buffer.from("text first\n"), Buffer.from([0xc3, 0x28])]),
    );
    expect(late.kind).toBe("binary");
    expect(late.byteSize).toBe(13);
  });

  it("refuses a stream that mixes strings and bytes, storing nothing", async () => {
    const { store } = await tempStore();
    const error = await errorOf(store.put(origin(), chunks(["a", Buffer.from("b")])));
    expect(isSpillwayError(error, "INVALID_ARGUMENT")).toBe(true);
    expect(await store.list()).toEqual([]);
  });

  it("rejects outputs over maxOutputBytes with a clear error and stores nothing", async () => {
    const { store, home } = await tempStore({ maxOutputBytes: 100_000, inlineMaxBytes: 1000 });
    const error = await errorOf(
      store.put(origin(), chunks(Array.from({ length: 20 }, () => "y".repeat(10_000)))),
    );
    expect(isSpillwayError(error, "OUTPUT_TOO_LARGE")).toBe(true);
    expect((error as Error).message).toContain("100000 bytes");
    expect(await store.list()).toEqual([]);
    expect(await readdir(join(home, "tmp"))).toEqual([]);
    expect(await readdir(join(home, "blobs"))).toEqual([]);
  });
});

describe("durability and corruption", () => {
  it("says which directory it cannot use", async () => {
    const { home } = await tempStore();
    const notADirectory = join(home, "spillway.db", "nested");
    const { openSqliteOutputStore } = await import("./sqlite-output-store.js");
    const error = await errorOf(openSqliteOutputStore({ home: notADirectory }));
    expect(isSpillwayError(error, "STORE_UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toContain(notADirectory);
  });

  it("survives reopening", async () => {
    const { store, home } = await tempStore();
    const record = await store.put(origin(), "persisted\n".repeat(10_000));
    await store.close();
    const { openSqliteOutputStore } = await import("./sqlite-output-store.js");
    const reopened = await openSqliteOutputStore({ home });
    try {
      const raw = await readOutput(reopened, record.id, SCOPE, { mode: "raw" });
      expect(sha(raw.text)).toBe(record.sha256);
      expect((await reopened.verify(record.id, SCOPE)).ok).toBe(true);
    } finally {
      await reopened.close();
    }
  });

  it("detects a blob changed on disk", async () => {
    const { store, home } = await tempStore({ inlineMaxBytes: 10 });
    const record = await store.put(origin(), "0123456789abcdef");
    const path = join(home, "blobs", record.sha256!.slice(0, 2), record.sha256!);
    await writeFile(path, "0123456789abcdeX");
    const result = await store.verify(record.id, SCOPE);
    expect(result.ok).toBe(false);
    await writeFile(path, "short");
    const error = await errorOf(store.open(record.id, SCOPE));
    expect(isSpillwayError(error, "STORE_CORRUPT")).toBe(true);
  });
});

describe("SqliteOutputStore.open", () => {
  it("repairs a text output whose payload was first stored as binary by an older version", async () => {
    const { store, home } = await tempStore({ inlineMaxBytes: 1024 });
    const text = "first\nsecond\n".repeat(30_000);
    await store.put(origin("img"), Buffer.from(text), { binary: true });
    const asText = await store.put(origin(), Buffer.from(text));
    await store.close();
    // What a store written before the fix holds: the text output's payload without an index.
    const db = new Database(join(home, "spillway.db"));
    db.prepare("UPDATE blobs SET line_index = x'' WHERE sha256 = ?").run(asText.sha256);
    db.close();
    const fresh = await openSqliteOutputStore({ home });
    try {
      const line = await readOutput(fresh, asText.id, SCOPE, {
        mode: "slice",
        lineStart: 40_000,
        lineEnd: 40_000,
      });
      expect(line.found && line.text).toBe("second\n");
    } finally {
      await fresh.close();
    }
    const check = new Database(join(home, "spillway.db"), { readonly: true });
    const row = check
      .prepare("SELECT length(line_index) AS n FROM blobs WHERE sha256 = ?")
      .get(asText.sha256) as { n: number };
    check.close();
    expect(row.n).toBeGreaterThan(0);
  });
});
