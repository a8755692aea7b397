import { describe, expect, it } from "vitest";
import { origin, SCOPE, SESSION, tempStore } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { readOutput } from "../retrieval/read-output.js";
import type { ReadScope } from "./output-store.js";

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** The rejection is a typed INVALID_ARGUMENT naming `argument`. */
async function expectInvalid(promise: Promise<unknown>, argument: string): Promise<void> {
  const error = await errorOf(promise);
  expect(isSpillwayError(error, "INVALID_ARGUMENT"), String(error)).toBe(true);
  expect((error as { details: { argument: string } }).details.argument).toBe(argument);
}

describe("read scopes fail closed", () => {
  it.each([
    ["an empty object", {}, "scope"],
    ["allSessions false", { allSessions: false }, "scope"],
    ["allSessions as a string", { allSessions: "true" }, "scope"],
    ["an empty session id", { sessionId: "" }, "scope.sessionId"],
    ["a numeric session id", { sessionId: 42 }, "scope"],
    ["null", null, "scope"],
    ["a string", "ses_other", "scope"],
    ["both keys", { sessionId: "ses_other", allSessions: true }, "scope"],
  ])("a scope of %s reads nothing", async (_label, scope, argument) => {
    const { store } = await tempStore();
    const record = await store.put({ ...origin(), sessionId: "ses_owner" }, "secret of ses_owner");
    const bad = scope as unknown as ReadScope;
    await expectInvalid(readOutput(store, record.id, bad, { mode: "raw" }), argument);
    await expectInvalid(store.get(record.id, bad), argument);
    await expectInvalid(store.verify(record.id, bad), argument);
    // The output is still there for its own session.
    const raw = await readOutput(store, record.id, { sessionId: "ses_owner" }, { mode: "raw" });
    expect(raw.text).toBe("secret of ses_owner");
  });
});

describe("store arguments are checked before the database sees them", () => {
  it("refuses a numeric sessionId instead of storing it as 42.0", async () => {
    const { store } = await tempStore();
    const bad = { ...origin(), sessionId: 42 } as unknown as ReturnType<typeof origin>;
    await expectInvalid(store.put(bad, "x"), "origin.sessionId");
    await expectInvalid(store.begin(bad), "origin.sessionId");
    expect(await store.list()).toEqual([]);
  });

  it("refuses an object sessionId or toolName", async () => {
    const { store } = await tempStore();
    const put = (patch: object) =>
      store.put({ ...origin(), ...patch } as unknown as ReturnType<typeof origin>, "x");
    await expectInvalid(put({ sessionId: { id: 1 } }), "origin.sessionId");
    await expectInvalid(put({ toolName: { name: "t" } }), "origin.toolName");
    await expectInvalid(put({ toolArgs: { a: 1 } }), "origin.toolArgs");
    await expectInvalid(put({ createdAt: "yesterday" }), "origin.createdAt");
    await expectInvalid(put({ createdAt: Number.NaN }), "origin.createdAt");
    await expectInvalid(put({ toolCallId: 7 }), "origin.toolCallId");
    await expectInvalid(store.put(null as never, "x"), "origin");
    expect(await store.list()).toEqual([]);
  });

  it('refuses binary: "false" and a non-string mediaType', async () => {
    const { store } = await tempStore();
    await expectInvalid(store.put(origin(), "x", { binary: "false" } as never), "options.binary");
    await expectInvalid(store.put(origin(), "x", { mediaType: 3 } as never), "options.mediaType");
    await expectInvalid(store.put(origin(), "x", { bianry: true } as never), "options");
    expect(await store.list()).toEqual([]);
  });

  it("refuses content that is not text, bytes or a stream", async () => {
    const { store } = await tempStore();
    await expectInvalid(store.put(origin(), 42 as never), "content");
    await expectInvalid(store.put(origin(), null as never), "content");
    await expectInvalid(store.put(origin(), { length: 3 } as never), "content");
  });

  it("checks list filters instead of failing with SQLITE_MISMATCH", async () => {
    const { store } = await tempStore();
    await store.put(origin(), "x");
    await expectInvalid(store.list({ limit: "x" } as never), "filter.limit");
    await expectInvalid(store.list({ limit: 0 }), "filter.limit");
    await expectInvalid(store.list({ offset: -1 }), "filter.offset");
    await expectInvalid(store.list({ offset: 1.5 }), "filter.offset");
    await expectInvalid(store.list({ sessionId: { $ne: 1 } } as never), "filter.sessionId");
    await expectInvalid(store.list({ status: "done" } as never), "filter.status");
    await expectInvalid(store.list(null as never), "filter");
    expect(await store.list({ sessionId: SESSION })).toHaveLength(1);
  });

  it("checks ids and the failure text of running outputs", async () => {
    const { store } = await tempStore();
    const running = await store.begin(origin());
    await expectInvalid(store.get(7 as never, SCOPE), "id");
    await expectInvalid(store.open({} as never, SCOPE), "id");
    await expectInvalid(store.complete(null as never, "x"), "id");
    await expectInvalid(store.fail(running.id, { message: "x" } as never), "error");
    expect((await store.get(running.id, SCOPE)).status).toBe("running");
  });
});
