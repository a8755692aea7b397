/**
 * The output store contract, run unchanged against every engine (SQLite, and a real
 * PostgreSQL server): what a store keeps, how it refuses, who may read what, and that a second
 * process on the same data reads every output byte for byte. Engine-specific behaviour (blob
 * files, chunk rows) is tested beside each engine.
 */
import { describe, expect, it } from "vitest";
import { isSpillwayError } from "../../src/core/errors.js";
import { readOutput } from "../../src/retrieval/read-output.js";
import { STORE_ENGINES } from "../helpers/store-engines.js";
import { chunks, errorOf, origin, SCOPE, SESSION, sha } from "../helpers/temp-store.js";

describe.each(STORE_ENGINES)("output store contract: $name", (engine) => {
  it("stores a text output whole with its record fields", async () => {
    const store = await engine.open({ clock: () => 1_700_000_000_000 });
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
      tokenMethod: "exact:o200k_base",
    });
    expect((await readOutput(store, record.id, SCOPE, { mode: "raw" })).text).toBe(text);
  });

  it("deduplicates payloads, and reads small, large and shared payloads alike", async () => {
    const store = await engine.open();
    const big = "0123456789abcdef\n".repeat(40_000); // 680 KB: several PostgreSQL chunks
    const a = await store.put(origin(), big);
    const b = await store.put(origin("other__tool"), big);
    const small = await store.put(origin(), "tiny");
    expect(a.sha256).toBe(b.sha256);
    expect(a.id).not.toBe(b.id);
    expect((await readOutput(store, b.id, SCOPE, { mode: "raw" })).text).toBe(big);
    expect((await readOutput(store, small.id, SCOPE, { mode: "raw" })).text).toBe("tiny");
    const slice = await readOutput(store, a.id, SCOPE, {
      mode: "slice",
      start: 262_140,
      length: 10,
    });
    expect(slice.found && slice.text).toBe(big.slice(262_140, 262_150));
  });

  it("stores text sanitized, as a model would see it, and keeps split surrogate pairs", async () => {
    const store = await engine.open();
    const text = "ok \ud800 lone high, lone low \udc00, pair 😀, end \ud83d";
    const record = await store.put(origin(), text);
    expect(record.sanitized).toBe(true);
    expect((await readOutput(store, record.id, SCOPE, { mode: "raw" })).text).toBe(
      text.toWellFormed(),
    );
    const split = await store.put(origin(), chunks(["a\ud83d", "\ude00b"]));
    expect(split.sanitized).toBe(false);
    expect((await readOutput(store, split.id, SCOPE, { mode: "raw" })).text).toBe("a😀b");
  });

  it("stores bytes that are not UTF-8, and declared binary content, as binary", async () => {
    const store = await engine.open();
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x80]);
    const record = await store.put(origin(), bytes);
    expect(record).toMatchObject({
      kind: "binary",
      byteSize: 5,
      lineCount: 0,
      sha256: sha(bytes),
    });
    const raw = await readOutput(store, record.id, SCOPE, { mode: "raw" });
    expect(raw).toMatchObject({ encoding: "base64", text: bytes.toString("base64") });
    const png = await store.put(origin(), Buffer.from("PNG-ish"), {
      binary: true,
      mediaType: "image/png",
    });
    expect(png).toMatchObject({ kind: "binary", mediaType: "image/png" });
  });

  it("dedupes the bytes, never the representation: a text output of bytes stored as binary reads as text", async () => {
    const store = await engine.open();
    const small = "line one\nline two\n";
    const large = "0123456789abcdef\n".repeat(40_000); // several PostgreSQL chunks, a blob file
    const huge = "0123456789abcdef\n".repeat(320_000); // past one 4 MiB batch: streamed while ingested
    for (const [i, text] of [small, "", large, huge].entries()) {
      // Binary first (another session, another tenant's prefix), then the same bytes as text.
      const binary = await store.put(
        { sessionId: `alice~s${i}`, toolName: "img", toolArgs: "{}" },
        Buffer.from(text),
        { binary: true, mediaType: "image/svg+xml" },
      );
      const asText = await store.put(origin("fs__read_text_file"), Buffer.from(text));
      expect(asText.sha256).toBe(binary.sha256);
      expect(asText).toMatchObject({ kind: "text", charCount: text.length });
      // Read as text, by characters and by lines (what needs the line index).
      const readsAsText = async (id: string) => {
        const chars = await readOutput(store, id, SCOPE, { mode: "slice", start: 0, length: 40 });
        expect(chars.found && chars.text).toBe(text.slice(0, 40));
        if (text === "") return;
        const last = text.split("\n").length - 1;
        const line = await readOutput(store, id, SCOPE, {
          mode: "slice",
          lineStart: last,
          lineEnd: last,
        });
        expect(line.found && line.text).toBe(`${text.split("\n")[last - 1]}\n`);
      };
      await readsAsText(asText.id);
      // Text first, then binary: each output keeps its own representation.
      const again = await store.put(origin("img"), Buffer.from(text), { binary: true });
      expect(again.kind).toBe("binary");
      const bytes = await readOutput(store, again.id, SCOPE, {
        mode: "slice",
        start: 0,
        length: 12,
      });
      expect(bytes).toMatchObject({ encoding: "base64" });
      await readsAsText(asText.id);
    }
  });

  it("handles the empty output", async () => {
    const store = await engine.open();
    const record = await store.put(origin(), "");
    expect(record).toMatchObject({ byteSize: 0, charCount: 0, lineCount: 0, sha256: sha("") });
    expect((await readOutput(store, record.id, SCOPE, { mode: "raw" })).text).toBe("");
    expect((await store.verify(record.id, SCOPE)).ok).toBe(true);
  });

  it("refuses an output over maxOutputBytes, or a stream mixing strings and bytes, storing nothing", async () => {
    const store = await engine.open({ maxOutputBytes: 100_000 });
    const tooLarge = await errorOf(
      store.put(origin(), chunks(Array.from({ length: 20 }, () => "y".repeat(10_000)))),
    );
    expect(isSpillwayError(tooLarge, "OUTPUT_TOO_LARGE")).toBe(true);
    expect((tooLarge as Error).message).toContain("100000 bytes");
    const mixed = await errorOf(store.put(origin(), chunks(["a", Buffer.from("b")])));
    expect(isSpillwayError(mixed, "INVALID_ARGUMENT")).toBe(true);
    const badOrigin = await errorOf(
      store.put({ sessionId: "", toolName: "t", toolArgs: "{}" }, "x"),
    );
    expect((badOrigin as Error).message).toContain("sessionId");
    expect(await store.list()).toEqual([]);
  });

  it("keeps a session within maxSessionBytes and says what it holds", async () => {
    const store = await engine.open({ maxSessionBytes: 1_000 });
    await store.put(origin(), "x".repeat(600));
    const error = await errorOf(store.put(origin(), "y".repeat(600)));
    expect(isSpillwayError(error, "SESSION_QUOTA_EXCEEDED")).toBe(true);
    expect((error as Error).message).toContain("already stores 600 bytes");
    // Another session has its own quota.
    expect((await store.put({ ...origin(), sessionId: "ses_b" }, "z".repeat(600))).byteSize).toBe(
      600,
    );
  });

  it("keeps every output of many concurrent puts", async () => {
    const store = await engine.open();
    const texts = Array.from({ length: 30 }, (_, i) => `concurrent ${i}\n`.repeat(i * 37));
    const records = await Promise.all(
      texts.map((text) => store.put(origin(), chunks([text, "end"]))),
    );
    for (const [i, record] of records.entries())
      expect((await readOutput(store, record.id, SCOPE, { mode: "raw" })).text).toBe(
        `${texts[i]}end`,
      );
  });

  it("records a running tool, then its content or its failure", async () => {
    const store = await engine.open();
    const running = await store.begin(origin("slow__tool"));
    expect(running).toMatchObject({ status: "running", byteSize: null, completedAt: null });
    expect(isSpillwayError(await errorOf(store.open(running.id, SCOPE)), "OUTPUT_NOT_READY")).toBe(
      true,
    );
    const ready = await store.complete(running.id, "done\n");
    expect(ready).toMatchObject({ id: running.id, status: "ready", byteSize: 5, lineCount: 1 });
    expect(
      isSpillwayError(await errorOf(store.complete(running.id, "twice")), "INVALID_ARGUMENT"),
    ).toBe(true);
    const flaky = await store.begin(origin("flaky__tool"));
    expect(await store.fail(flaky.id, "connection reset")).toMatchObject({
      status: "failed",
      error: "connection reset",
    });
    const failed = await errorOf(store.open(flaky.id, SCOPE));
    expect(isSpillwayError(failed, "OUTPUT_FAILED")).toBe(true);
    expect((failed as Error).message).toContain("connection reset");
  });

  it("refuses reads of another session's outputs as not found", async () => {
    const store = await engine.open();
    const mine = await store.put(origin(), "secret");
    for (const attempt of [
      () => store.get(mine.id, { sessionId: "ses_other" }),
      () => store.open(mine.id, { sessionId: "ses_other" }),
      () => readOutput(store, mine.id, { sessionId: "ses_other" }, { mode: "raw" }),
    ])
      expect(isSpillwayError(await errorOf(attempt()), "OUTPUT_NOT_FOUND")).toBe(true);
    expect((await store.get(mine.id, { allSessions: true })).id).toBe(mine.id);
    expect(((await errorOf(store.get("out_doesnotexist", SCOPE))) as Error).message).toContain(
      "out_doesnotexist",
    );
  });

  it("lists newest first, filtered by session and status, and counts reads", async () => {
    let now = 1000;
    const store = await engine.open({ clock: () => now++ });
    const a = await store.put(origin(), "a");
    const b = await store.put({ ...origin(), sessionId: "ses_b" }, "b");
    const c = await store.begin(origin());
    expect((await store.list()).map((r) => r.id)).toEqual([c.id, b.id, a.id]);
    expect((await store.list({ sessionId: SESSION })).map((r) => r.id)).toEqual([c.id, a.id]);
    expect((await store.list({ status: "running" })).map((r) => r.id)).toEqual([c.id]);
    expect((await store.list({ limit: 1, offset: 1 })).map((r) => r.id)).toEqual([b.id]);
    await readOutput(store, a.id, SCOPE, { mode: "raw" });
    await store.countRead(a.id, 5);
    expect((await store.get(a.id, SCOPE)).readCount).toBe(6);
    await expect(store.countRead(a.id, 0)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("a second process on the same data reads every output byte for byte", async () => {
    const store = await engine.open();
    const text = "persisted 😀\n".repeat(30_000);
    const record = await store.put(origin(), text);
    const running = await store.begin(origin());
    const other = await engine.reopen(store);
    expect((await readOutput(other, record.id, SCOPE, { mode: "raw" })).text).toBe(text);
    expect(await other.verify(record.id, SCOPE)).toMatchObject({
      ok: true,
      actualSha256: record.sha256,
    });
    // Completed by the other one: the first sees it ready.
    await other.complete(running.id, "finished elsewhere\n");
    expect((await readOutput(store, running.id, SCOPE, { mode: "raw" })).text).toBe(
      "finished elsewhere\n",
    );
  });
});
