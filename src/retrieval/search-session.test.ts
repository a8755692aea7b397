import { describe, expect, it } from "vitest";
import { errorOf, origin, SCOPE, SESSION, tempStore } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { searchSession } from "./search-session.js";

describe("search without an id: every output of the session", () => {
  it("ranks the lines of all the session's outputs together, each naming its output", async () => {
    const { store } = await tempStore();
    const quiet = Array.from({ length: 300 }, (_, i) => `worker ${i} heartbeat ok`).join("\n");
    const first = await store.put(origin("fs__read"), `${quiet}\nboot sequence started\n`);
    const second = await store.put(
      origin("shell__run"),
      "build ok\nkernel: BOOT-MARKER-ALPHA=7f3a9c\nboot done\n",
    );
    const third = await store.put(origin("fs__read"), "起動マーカーは 7f3a9c です\n");
    await store.put(origin("img"), new Uint8Array([0, 1, 2, 255]), { binary: true });
    const running = await store.begin(origin("slow__tool"));
    const failed = await store.begin(origin("bad__tool"));
    await store.fail(failed.id, "exit 1");
    const other = await store.put(
      { ...origin(), sessionId: "ses_other" },
      "boot marker of another session\n",
    );

    const found = await searchSession(store, SESSION, SCOPE, { query: "boot marker 7f3a9c" });
    expect(found.matches[0]).toMatchObject({ outputId: second.id, line: 2 });
    expect(found.matches.map((m) => m.outputId)).toEqual(
      expect.arrayContaining([first.id, second.id, third.id]),
    );
    expect(found.matches.some((m) => m.outputId === other.id)).toBe(false);
    // One corpus: "boot" is counted over every output's lines.
    const boot = found.terms.find((t) => t.term === "boot")!;
    expect(boot.lines).toBe(3);
    expect(found.outputsSearched).toBe(3);
    expect(found.outputsSkipped.map((s) => [s.toolName, s.reason])).toEqual(
      expect.arrayContaining([
        ["img", "binary"],
        ["slow__tool", "running"],
        ["bad__tool", "failed"],
      ]),
    );
    expect(found.searchedLines).toBe(301 + 3 + 1);
    for (const match of found.matches) {
      const record = await store.get(match.outputId, SCOPE);
      expect(match.provenance).toMatchObject({ outputId: record.id, sha256: record.sha256 });
    }
    const japanese = await searchSession(store, SESSION, SCOPE, { query: "起動マーカー" });
    expect(japanese.matches[0]).toMatchObject({ outputId: third.id, line: 1 });
    expect(running.status).toBe("running");
  });

  it("reads only what the scope may read: another session is not found, like an unknown one", async () => {
    const { store } = await tempStore();
    await store.put({ ...origin(), sessionId: "ses_other" }, "boot marker\n");
    const error = await errorOf(searchSession(store, "ses_other", SCOPE, { query: "boot" }));
    expect(isSpillwayError(error, "SESSION_NOT_FOUND")).toBe(true);
    const owner = await searchSession(store, "ses_other", { allSessions: true }, { query: "boot" });
    expect(owner.matches).toHaveLength(1);
    const empty = await searchSession(store, "ses_none", { allSessions: true }, { query: "boot" });
    expect(empty).toMatchObject({ matches: [], outputsSearched: 0, matchingLines: 0 });
  });

  it("stops at one deadline for the whole session and lists what it did not reach", async () => {
    const { store } = await tempStore();
    const big = Array.from({ length: 200_000 }, (_, i) => `line ${i} filler text`).join("\n");
    await store.put(origin(), big);
    await store.put(origin(), "boot marker\n");
    const found = await searchSession(store, SESSION, SCOPE, { query: "boot", timeoutMs: 1 });
    expect(found.stopped).toEqual({ reason: "deadline", timeoutMs: 1 });
    expect(found.outputsSkipped.map((s) => s.reason)).toContain("deadline");
  });
});
