import { execFile } from "node:child_process";
import { readdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers/temp-store.js";
import { readOutput } from "../retrieval/read-output.js";
import { openSqliteOutputStore } from "./sqlite-output-store.js";

const run = promisify(execFile);
const WRITER = join(import.meta.dirname, "../../test/fixtures/store-writer.ts");

function writer(home: string, name: string, count: number, mode?: string) {
  return run(
    process.execPath,
    ["--import", "tsx", WRITER, home, name, String(count), ...(mode ? [mode] : [])],
    {
      cwd: join(import.meta.dirname, "../.."),
    },
  );
}

describe("several processes and crashes", () => {
  it("lets concurrent writer processes share one store without losing anything", async () => {
    const home = await tempDir();
    const names = ["a", "b", "c", "d"];
    const results = await Promise.all(names.map((name) => writer(home, name, 15)));
    const store = await openSqliteOutputStore({ home });
    try {
      for (const [i, result] of results.entries()) {
        const name = names[i]!;
        const ids = JSON.parse(result.stdout) as string[];
        expect(ids).toHaveLength(15);
        for (const [n, id] of ids.entries()) {
          const scope = { sessionId: `ses_${name}` };
          const raw = await readOutput(store, id, scope, { mode: "raw" });
          expect(raw.text).toBe(`${name} output ${n}\n`.repeat(200 + n));
        }
      }
      expect(await store.list({ limit: 1000 })).toHaveLength(60);
      expect(await readdir(join(home, "tmp"))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("a crash between blob write and record write leaves no half-visible output", async () => {
    const home = await tempDir();
    const crashed = await writer(home, "x", 1, "crash-after-blob").catch(
      (error: { signal?: string }) => error,
    );
    expect((crashed as { signal?: string }).signal).toBe("SIGKILL");
    const store = await openSqliteOutputStore({ home, inlineMaxBytes: 1024 });
    try {
      // The blob reached disk, but no record points at it: nothing is visible.
      expect(await store.list()).toEqual([]);
      const shards = await readdir(join(home, "blobs"));
      expect(shards).toHaveLength(1);
      // Storing the same content again works and reads back whole (the blob is reused).
      const text = "x output 0\n".repeat(200);
      const record = await store.put(
        { sessionId: "ses_x", toolName: "writer__write", toolArgs: "{}" },
        text,
      );
      expect(
        (await readOutput(store, record.id, { sessionId: "ses_x" }, { mode: "raw" })).text,
      ).toBe(text);
      expect((await store.verify(record.id, { sessionId: "ses_x" })).ok).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("removes temp files abandoned by a crashed writer when a store opens", async () => {
    const home = await tempDir();
    await (await openSqliteOutputStore({ home })).close();
    const stale = join(home, "tmp", "abandoned.part");
    const fresh = join(home, "tmp", "in-progress.part");
    await writeFile(stale, "partial");
    await writeFile(fresh, "partial");
    const old = new Date(Date.now() - 48 * 3600 * 1000);
    await utimes(stale, old, old);
    const store = await openSqliteOutputStore({ home });
    await store.close();
    expect(await readdir(join(home, "tmp"))).toEqual(["in-progress.part"]);
  });
});
