import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import {
  openSqliteOutputStore,
  type SqliteOutputStore,
  type SqliteOutputStoreOptions,
} from "../../src/store/sqlite-output-store.js";

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Runs `cleanup` after the current test (last registered runs first). */
export function onCleanup(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

/** A fresh temp directory removed after the test. */
export async function tempDir(prefix = "spillway-test-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A store in a fresh temp home, closed and removed after the test. */
export async function tempStore(
  options: Omit<SqliteOutputStoreOptions, "home"> = {},
): Promise<{ store: SqliteOutputStore; home: string }> {
  const home = await tempDir();
  const store = await openSqliteOutputStore({ ...options, home });
  cleanups.push(() => store.close());
  return { store, home };
}

export const SESSION = "ses_test";
export const SCOPE = { sessionId: SESSION } as const;

/** The origin of a test tool call. */
export function origin(toolName = "test__tool", toolArgs = "{}") {
  return { sessionId: SESSION, toolName, toolArgs };
}

/** SHA-256 (hex) of a string's UTF-8 or of bytes. */
export const sha = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** A content stream of the given pieces. */
export async function* chunks(parts: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  for (const part of parts) yield part;
}

/** What `promise` rejected with (a test failure if it resolves). */
export async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** `text` stored in a fresh store and opened for reading (closed after the test). */
export async function openText(text: string) {
  const { store } = await tempStore();
  const record = await store.put(origin(), text);
  const opened = await store.open(record.id, SCOPE);
  onCleanup(() => opened.close());
  return { store, record, opened };
}
