import { createHash } from "node:crypto";
import { readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { origin, SCOPE, SESSION, tempStore } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { readOutput } from "../retrieval/read-output.js";

const sha = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

async function* chunks(parts: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  for (const part of parts) yield part;
}

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("SqliteOutputStore.put", () => {
  it("stores a text output whole with its record fields", async () => {
    const { store } = await tempStore({ clock: () => 1_700_000_000_000 });
    const text = "line one\nline two\nline three";
    const record = await store.put(
      { ...origin("fs__read_file", '{"path": "a.txt"}'), toolCallId: "call_1" },
      text,
    );
    expect(record.id).toMatch(/^out_[0-9a-z]{26}$/);
    expect(record).toMatchObject({
      sessionId: SESSION,
      toolName: "fs__read_file",
      toolArgs: '{"path": "a.txt"}',
      toolCallId: "call_1",
      status: "ready",
      error: null,
      createdAt: 1_700_000_000_000,
      completedAt: 1_700_000_000_000,
      byteSize: Buffer.byteLength(text),
      charCount: text.length,
      lineCount: 3,
      kind: "text",
      sha256: sha(text),
      sanitized: false,
      readCount: 0,
    });
    expect(record.tokenMethod).toBe("exact:o200k_base");
    expect(record.tokenEstimate).toBeGreaterThan(3);
    const raw = await readOutput(store, record.id, SCOPE, { mode: "raw" });
    expect(raw.text).toBe(text);
  });

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

  it("stores text sanitized, exactly as a model would see it, and says so", async () => {
    const { store } = await tempStore();
    const text = "ok \ud800 lone high, lone low \udc00, pair 😀, end \ud83d";
    const record = await store.put(origin(), text);
    expect(record.sanitized).toBe(true);
    const expected = text.toWellFormed();
    expect((await readOutput(store, record.id, SCOPE, { mode: "raw" })).text).toBe(expected);
    expect(record.sha256).toBe(sha(expected));
    expect(record.charCount).toBe(expected.length);
    const clean = await store.put(origin(), "pair 😀 only");
    expect(clean.sanitized).toBe(false);
  });

  it("keeps a surrogate pair split across streamed string chunks intact", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), chunks(["a\ud83d", "\ude00b"]));
    expect(record.sanitized).toBe(false);
    expect((await readOutput(store, record.id, SCOPE, { mode: "raw" })).text).toBe("a😀b");
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

  it("handles the empty output", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), "");
    expect(record).toMatchObject({
      byteSize: 0,
      charCount: 0,
      lineCount: 0,
      tokenEstimate: 0,
      sha256: sha(""),
    });
    expect((await readOutput(store, record.id, SCOPE, { mode: "raw" })).text).toBe("");
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

  it("keeps every output of many concurrent puts in one process", async () => {
    const { store } = await tempStore({ inlineMaxBytes: 2048 });
    const texts = Array.from({ length: 30 }, (_, i) => `concurrent ${i}\n`.repeat(i * 37));
    const records = await Promise.all(
      texts.map((text) => store.put(origin(), chunks([text, "end"]))),
    );
    for (const [i, record] of records.entries()) {
      expect((await readOutput(store, record.id, SCOPE, { mode: "raw" })).text).toBe(
        `${texts[i]}end`,
      );
    }
  });

  it("validates the origin", async () => {
    const { store } = await tempStore();
    const error = await errorOf(store.put({ sessionId: "", toolName: "t", toolArgs: "{}" }, "x"));
    expect(isSpillwayError(error, "INVALID_ARGUMENT")).toBe(true);
    expect((error as Error).message).toContain("sessionId");
  });
});

describe("running, ready and failed outputs", () => {
  it("records a running tool, then its content", async () => {
    const { store } = await tempStore();
    const running = await store.begin(origin("slow__tool"));
    expect(running).toMatchObject({ status: "running", byteSize: null, completedAt: null });
    const notReady = await errorOf(store.open(running.id, SCOPE));
    expect(isSpillwayError(notReady, "OUTPUT_NOT_READY")).toBe(true);
    const ready = await store.complete(running.id, "done\n");
    expect(ready).toMatchObject({ id: running.id, status: "ready", byteSize: 5, lineCount: 1 });
    const again = await errorOf(store.complete(running.id, "twice"));
    expect(isSpillwayError(again, "INVALID_ARGUMENT")).toBe(true);
  });

  it("records a failed tool with its error", async () => {
    const { store } = await tempStore();
    const running = await store.begin(origin("flaky__tool"));
    const failed = await store.fail(running.id, "connection reset");
    expect(failed).toMatchObject({ status: "failed", error: "connection reset" });
    const error = await errorOf(store.open(running.id, SCOPE));
    expect(isSpillwayError(error, "OUTPUT_FAILED")).toBe(true);
    expect((error as Error).message).toContain("connection reset");
  });
});

describe("session isolation and listing", () => {
  it("refuses reads of another session's outputs as not found", async () => {
    const { store } = await tempStore();
    const mine = await store.put(origin(), "secret");
    for (const attempt of [
      store.get(mine.id, { sessionId: "ses_other" }),
      store.open(mine.id, { sessionId: "ses_other" }),
      readOutput(store, mine.id, { sessionId: "ses_other" }, { mode: "raw" }),
    ]) {
      const error = await errorOf(attempt);
      expect(isSpillwayError(error, "OUTPUT_NOT_FOUND")).toBe(true);
    }
    expect((await store.get(mine.id, { allSessions: true })).id).toBe(mine.id);
    const unknown = await errorOf(store.get("out_doesnotexist", SCOPE));
    expect((unknown as Error).message).toContain("out_doesnotexist");
  });

  it("lists newest first, filtered by session and status", async () => {
    let now = 1000;
    const { store } = await tempStore({ clock: () => now++ });
    const a = await store.put(origin(), "a");
    const b = await store.put({ ...origin(), sessionId: "ses_b" }, "b");
    const c = await store.begin(origin());
    expect((await store.list()).map((r) => r.id)).toEqual([c.id, b.id, a.id]);
    expect((await store.list({ sessionId: SESSION })).map((r) => r.id)).toEqual([c.id, a.id]);
    expect((await store.list({ status: "running" })).map((r) => r.id)).toEqual([c.id]);
    expect((await store.list({ limit: 1, offset: 1 })).map((r) => r.id)).toEqual([b.id]);
  });

  it("counts reads", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), "abc");
    await readOutput(store, record.id, SCOPE, { mode: "raw" });
    await readOutput(store, record.id, SCOPE, { mode: "slice", start: 1, length: 1 });
    expect((await store.get(record.id, SCOPE)).readCount).toBe(2);
    await store.countRead(record.id, 5);
    expect((await store.get(record.id, SCOPE)).readCount).toBe(7);
    await expect(store.countRead(record.id, 0)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
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
