import { readdir, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { onCleanup, origin, tempDir } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { openSqliteStores } from "./sqlite-history-store.js";
import { openSqliteOutputStore } from "./sqlite-output-store.js";
import { collectGarbage, storeStats } from "./store-maintenance.js";

const DAY = 24 * 3600 * 1000;
const big = (tag: string) => `${tag} `.repeat(20_000); // ~100 kB: a blob file

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

async function files(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) found.push(entry.name);
  }
  return found;
}

/** A session in the history, with one tool call whose output is stored. */
async function sessionWithOutput(
  home: string,
  id: string,
  status: "running" | "completed",
  at: number,
  parent?: string,
) {
  const stores = await openSqliteStores({ home, clock: () => at, inlineMaxBytes: 1024 });
  try {
    await stores.history.createSession({
      id,
      agentName: "a",
      prompt: "p",
      settings: {},
      ...(parent ? { parentSessionId: parent, parentToolCallId: "call_p" } : {}),
    });
    const record = await stores.outputs.put(
      { sessionId: id, toolName: "t", toolArgs: "{}", toolCallId: "call_1", createdAt: at },
      big(id),
    );
    await stores.history.startToolCall({
      sessionId: id,
      toolCallId: "call_1",
      turn: 1,
      toolName: "t",
      argsText: "{}",
      startedAt: at,
    });
    await stores.history.finishToolCall(
      id,
      "call_1",
      { status: "ok", outputId: record.id },
      {
        turn: 1,
        toolName: "t",
        ref: { kind: "output", outputId: record.id, isError: false, shown: "handle" },
      },
    );
    if (status === "completed") await stores.history.updateSession(id, { status: "completed" });
    return record;
  } finally {
    await stores.close();
  }
}

describe("store gc", () => {
  it("removes orphan blob files and stale temp files, keeping what outputs use", async () => {
    const home = await tempDir();
    const store = await openSqliteOutputStore({ home, inlineMaxBytes: 1024 });
    const kept = await store.put(origin(), big("kept"));
    await store.close();
    const orphan = join(home, "blobs", "ab", "ab".padEnd(64, "0"));
    await (await import("node:fs/promises")).mkdir(join(home, "blobs", "ab"), { recursive: true });
    await writeFile(orphan, "left by a crash between blob and record");
    // A temp file of a writer that is gone (pid 2^22+1 is above Linux's pid_max default).
    const deadTemp = join(home, "tmp", "4194305-deadbeef.part");
    await writeFile(deadTemp, "partial");
    const before = await storeStats({ home });
    expect(before.orphanBlobFiles.count).toBe(1);
    expect(before.tempFiles).toMatchObject({ count: 1, stale: 1 });

    const dry = await collectGarbage({ home, dryRun: true, graceMs: 0 });
    expect(dry.removed.blobFiles.count).toBe(1);
    expect(dry.removed.tempFiles.count).toBe(1);
    expect(await files(join(home, "tmp"))).toEqual(["4194305-deadbeef.part"]);
    expect(await files(join(home, "blobs"))).toHaveLength(2);

    const report = await collectGarbage({ home, graceMs: 0 });
    expect(report.removed.blobFiles).toEqual(dry.removed.blobFiles);
    expect(await files(join(home, "tmp"))).toEqual([]);
    expect(await files(join(home, "blobs"))).toEqual([kept.sha256]);
    const reopened = await openSqliteOutputStore({ home });
    onCleanup(() => reopened.close());
    expect((await reopened.verify(kept.id, { allSessions: true })).ok).toBe(true);
  });

  it("keeps a fresh orphan (a writer may be about to record it) and a live writer's temp file", async () => {
    const home = await tempDir();
    await (await openSqliteOutputStore({ home })).close();
    await (await import("node:fs/promises")).mkdir(join(home, "blobs", "cd"), { recursive: true });
    await writeFile(join(home, "blobs", "cd", "cd".padEnd(64, "1")), "just written");
    await writeFile(join(home, "tmp", `${process.ppid}-live.part`), "being written");
    const report = await collectGarbage({ home });
    expect(report.kept.recentBlobFiles).toBe(1);
    expect(report.kept.liveTempFiles).toBe(1);
    expect(report.removed.blobFiles.count).toBe(0);
  });

  it("removes old sessions whole, never a running one or its sub-agents", async () => {
    const home = await tempDir();
    const now = Date.now();
    const old = now - 40 * DAY;
    const done = await sessionWithOutput(home, "ses_done", "completed", old);
    const live = await sessionWithOutput(home, "ses_live", "running", old);
    const child = await sessionWithOutput(home, "ses_child", "completed", old, "ses_live");
    const recent = await sessionWithOutput(home, "ses_recent", "completed", now - DAY);
    // An output outside any session history (e.g. `outputs put`), old, and a recent one.
    const store = await openSqliteOutputStore({ home, inlineMaxBytes: 1024 });
    const loose = await store.put({ ...origin(), createdAt: old }, big("loose"));
    const fresh = await store.put(origin(), big("fresh"));
    await store.close();

    const dry = await collectGarbage({ home, olderThanMs: 30 * DAY, dryRun: true, graceMs: 0 });
    const report = await collectGarbage({ home, olderThanMs: 30 * DAY, graceMs: 0 });
    expect(report.removed).toEqual(dry.removed);
    expect(report.removed.sessions).toBe(1);
    expect(report.removed.outputs.count).toBe(2);
    expect(report.removed.payloads.count).toBe(2);
    expect(report.removed.blobFiles.count).toBe(2);
    expect(report.kept.liveSessions).toBe(2);

    const stores = await openSqliteStores({ home });
    onCleanup(() => stores.close());
    expect(
      isSpillwayError(await errorOf(stores.history.getSession("ses_done")), "SESSION_NOT_FOUND"),
    ).toBe(true);
    for (const id of ["ses_live", "ses_child", "ses_recent"]) {
      expect((await stores.history.getSession(id))?.id).toBe(id);
    }
    const all = { allSessions: true } as const;
    for (const record of [live, child, recent, fresh]) {
      expect((await stores.outputs.verify(record.id, all)).ok).toBe(true);
    }
    for (const record of [done, loose]) {
      expect(
        isSpillwayError(await errorOf(stores.outputs.get(record.id, all)), "OUTPUT_NOT_FOUND"),
      ).toBe(true);
    }
  });

  it("removes a dead writer's temp file whatever its age, at gc; a store open waits", async () => {
    const home = await tempDir();
    await (await openSqliteOutputStore({ home })).close();
    const temp = join(home, "tmp", "4194306-cafe.part");
    await writeFile(temp, "partial");
    // Opening a store leaves a young one alone (its pid may be another host's)…
    await (await openSqliteOutputStore({ home })).close();
    expect(await files(join(home, "tmp"))).toHaveLength(1);
    // …gc removes it at once.
    await collectGarbage({ home });
    expect(await files(join(home, "tmp"))).toEqual([]);
    // Any temp file over a day old is removed at open, whoever wrote it.
    const ancient = join(home, "tmp", `${process.ppid}-old.part`);
    await writeFile(ancient, "x");
    const past = new Date(Date.now() - 2 * DAY);
    await utimes(ancient, past, past);
    await (await openSqliteOutputStore({ home })).close();
    expect(await stat(ancient).catch(() => null)).toBeNull();
  });
});

describe("maxSessionBytes", () => {
  it("refuses a put that would pass the session's quota, storing nothing", async () => {
    const home = await tempDir();
    const store = await openSqliteOutputStore({
      home,
      maxSessionBytes: 250_000,
      inlineMaxBytes: 1024,
    });
    onCleanup(() => store.close());
    await store.put(origin(), "a".repeat(200_000));
    const error = await errorOf(store.put(origin(), "b".repeat(100_000)));
    expect(isSpillwayError(error, "SESSION_QUOTA_EXCEEDED"), String(error)).toBe(true);
    expect(error).toMatchObject({ details: { sessionId: origin().sessionId, limit: 250_000 } });
    expect((error as Error).message).toContain("maxSessionBytes");
    expect(await store.list()).toHaveLength(1);
    // Another session has its own quota; a stream past the quota stops early.
    await store.put({ ...origin(), sessionId: "ses_other" }, "c".repeat(200_000));
    async function* endless() {
      for (;;) yield "d".repeat(64 * 1024);
    }
    const streamed = await errorOf(store.put({ ...origin(), sessionId: "ses_third" }, endless()));
    expect(isSpillwayError(streamed, "SESSION_QUOTA_EXCEEDED")).toBe(true);
    expect(await files(join(home, "tmp"))).toEqual([]);
  });

  it("counts complete() of a running output against its session", async () => {
    const home = await tempDir();
    const store = await openSqliteOutputStore({ home, maxSessionBytes: 1000 });
    onCleanup(() => store.close());
    const running = await store.begin(origin());
    const error = await errorOf(store.complete(running.id, "x".repeat(1001)));
    expect(isSpillwayError(error, "SESSION_QUOTA_EXCEEDED")).toBe(true);
    expect((await store.complete(running.id, "x".repeat(1000))).status).toBe("ready");
  });
});
