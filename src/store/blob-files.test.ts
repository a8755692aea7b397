import { createHash } from "node:crypto";
import { chmod, lstat, mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempDir } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { readOutput } from "../retrieval/read-output.js";
import { openSqliteOutputStore } from "./sqlite-output-store.js";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const modeOf = async (path: string) => (await stat(path)).mode & 0o7777;

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("deduplication checks the blob it reuses", () => {
  it("replaces a garbage file found at the content address, so reads work", async () => {
    const home = await tempDir();
    const text = "a line of the real content\n".repeat(5_000);
    const digest = sha(text);
    await mkdir(join(home, "blobs", digest.slice(0, 2)), { recursive: true });
    const planted = join(home, "blobs", digest.slice(0, 2), digest);
    await writeFile(planted, "garbage that is not the content");
    const store = await openSqliteOutputStore({ home, inlineMaxBytes: 1024 });
    try {
      const record = await store.put(origin(), text);
      expect(record.sha256).toBe(digest);
      expect((await store.verify(record.id, SCOPE)).ok).toBe(true);
      expect((await readOutput(store, record.id, SCOPE, { mode: "raw" })).text).toBe(text);
      expect(await readFile(planted, "utf8")).toBe(text);
    } finally {
      await store.close();
    }
  });

  it("a second put of the same content repairs a blob damaged after the first", async () => {
    const home = await tempDir();
    const store = await openSqliteOutputStore({ home, inlineMaxBytes: 1024 });
    try {
      const text = "x".repeat(10_000);
      const first = await store.put(origin(), text);
      const path = join(home, "blobs", first.sha256!.slice(0, 2), first.sha256!);
      await writeFile(path, "y".repeat(10_000));
      expect((await store.verify(first.id, SCOPE)).ok).toBe(false);
      await store.put(origin(), text);
      expect((await store.verify(first.id, SCOPE)).ok).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("refuses to read a blob file that is a symbolic link", async () => {
    const home = await tempDir();
    const store = await openSqliteOutputStore({ home, inlineMaxBytes: 1024 });
    try {
      const text = "z".repeat(10_000);
      const record = await store.put(origin(), text);
      const path = join(home, "blobs", record.sha256!.slice(0, 2), record.sha256!);
      const elsewhere = join(await tempDir(), "copy");
      await writeFile(elsewhere, text);
      await (await import("node:fs/promises")).rm(path);
      await symlink(elsewhere, path);
      const error = await errorOf(readOutput(store, record.id, SCOPE, { mode: "raw" }));
      expect(isSpillwayError(error, "STORE_CORRUPT"), String(error)).toBe(true);
      expect((error as Error).message).toContain("symbolic link");
    } finally {
      await store.close();
    }
  });
});

describe("--home never changes what spillway did not create", () => {
  it("leaves an existing directory's mode alone (a 1777 /tmp stays 1777)", async () => {
    const home = await tempDir();
    await chmod(home, 0o1777);
    await (await openSqliteOutputStore({ home })).close();
    expect(await modeOf(home)).toBe(0o1777);
    // What it created is private.
    expect(await modeOf(join(home, "blobs"))).toBe(0o700);
    expect(await modeOf(join(home, "tmp"))).toBe(0o700);
    expect(await modeOf(join(home, "spillway.db"))).toBe(0o600);
  });

  it("creates a missing home (and parents) private", async () => {
    const parent = await tempDir();
    const home = join(parent, "a", "b");
    await (await openSqliteOutputStore({ home })).close();
    expect(await modeOf(home)).toBe(0o700);
    expect(await modeOf(join(parent, "a"))).toBe(0o700);
  });

  it("leaves the modes of existing store entries alone", async () => {
    const home = await tempDir();
    await (await openSqliteOutputStore({ home })).close();
    await chmod(join(home, "blobs"), 0o750);
    await chmod(join(home, "spillway.db"), 0o640);
    await (await openSqliteOutputStore({ home })).close();
    expect(await modeOf(join(home, "blobs"))).toBe(0o750);
    expect(await modeOf(join(home, "spillway.db"))).toBe(0o640);
  });

  it.each(["blobs", "tmp", "spillway.db"])(
    "refuses a symlinked %s and leaves its target untouched",
    async (entry) => {
      const home = await tempDir();
      const target = join(await tempDir(), "target");
      if (entry === "spillway.db") await writeFile(target, "");
      else await mkdir(target);
      await chmod(target, 0o755);
      await symlink(target, join(home, entry));
      const error = await errorOf(openSqliteOutputStore({ home }));
      expect(isSpillwayError(error, "STORE_UNAVAILABLE"), String(error)).toBe(true);
      expect((error as Error).message).toContain(`${join(home, entry)} is a symbolic link`);
      expect(await modeOf(target)).toBe(0o755);
      expect((await lstat(join(home, entry))).isSymbolicLink()).toBe(true);
    },
  );

  it("refuses a symlinked blob shard directory when storing", async () => {
    const home = await tempDir();
    const text = "q".repeat(10_000);
    const digest = sha(text);
    const store = await openSqliteOutputStore({ home, inlineMaxBytes: 1024 });
    try {
      const target = await tempDir();
      await symlink(target, join(home, "blobs", digest.slice(0, 2)));
      const error = await errorOf(store.put(origin(), text));
      expect(isSpillwayError(error, "STORE_UNAVAILABLE"), String(error)).toBe(true);
      expect((error as Error).message).toContain("symbolic link");
      expect(await store.list()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
