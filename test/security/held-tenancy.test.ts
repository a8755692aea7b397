/**
 * Probes that held: tenant isolation on every HTTP path of a real `spillway serve` process with
 * a tokens file (alice and bob), and its tokens. Another tenant's anything answers 404 exactly
 * like an unknown id.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Responder, toolCall, toolMessages } from "../../src/testing/index.js";
import {
  ALICE,
  BOB,
  json,
  type ServeProcess,
  scriptedAgentDir,
  settled,
  startServe,
  stopAll,
  testServerFrontmatter,
} from "./serve-process.js";

type ErrorBody = { code: string; message: string };

let serve: ServeProcess;
let closeModel: () => Promise<void>;
/** Alice's agent session, and an output it made. */
let session: string;
let sessionOutput: string;
/** An output alice stored over HTTP in her session "shared-name", with call id call_1. */
let stored: string;

beforeAll(async () => {
  const respond: Responder = (request) =>
    toolMessages(request).length === 0
      ? toolCall("test__generate_output", { bytes: 20_000, kind: "log" })
      : toolCall("agent__final_report", { report: "done" });
  const { dir, model } = await scriptedAgentDir(respond, "probe", testServerFrontmatter());
  closeModel = () => model.close();
  serve = await startServe({ tenants: true, cwd: dir, args: ["--agents-dir", dir] });
  const started = await serve.fetch("/v1/sessions", {
    method: "POST",
    headers: { ...ALICE, "content-type": "application/json" },
    body: JSON.stringify({ agent: { path: "probe.md" }, prompt: "go" }),
  });
  expect(started.status).toBe(201);
  session = (await json<{ session: { id: string } }>(started)).session.id;
  await settled(serve, session, ALICE);
  const outputs = await json<{ outputs: { id: string }[] }>(
    await serve.fetch(`/v1/sessions/${session}/outputs`, { headers: ALICE }),
  );
  sessionOutput = outputs.outputs[0]!.id;
  const put = await serve.put(
    "session=shared-name&tool=t&callId=call_1",
    "alice's secret\n",
    ALICE,
  );
  stored = (await json<{ output: { id: string } }>(put)).output.id;
}, 120_000);
afterAll(async () => {
  await closeModel?.();
  await stopAll();
});

/** Bob's answer for `path` is a 404 with the body an unknown id gets. */
async function hiddenFromBob(path: string, unknownPath: string): Promise<void> {
  const his = await serve.fetch(path, { headers: BOB });
  const unknown = await serve.fetch(unknownPath, { headers: BOB });
  expect(his.status, path).toBe(404);
  expect(unknown.status).toBe(404);
  const a = await json<ErrorBody>(his);
  const b = await json<ErrorBody>(unknown);
  expect(a.code).toBe(b.code);
  expect(a.message.replaceAll(/(out|ses)_\w+/g, "ID")).toBe(
    b.message.replaceAll(/(out|ses)_\w+/g, "ID"),
  );
  // Alice reads it.
  expect((await serve.fetch(path, { headers: ALICE })).status).toBe(200);
}

const UNKNOWN_OUTPUT = "out_00000000000000000000000000";
const UNKNOWN_SESSION = "ses_00000000000000000000000000";

describe("held: tenant isolation on every HTTP path", () => {
  it("output records", async () => {
    await hiddenFromBob(`/v1/outputs/${stored}`, `/v1/outputs/${UNKNOWN_OUTPUT}`);
    await hiddenFromBob(`/v1/outputs/${sessionOutput}`, `/v1/outputs/${UNKNOWN_OUTPUT}`);
  });

  it("content reads, every mode", async () => {
    for (const query of [
      "mode=slice",
      "mode=grep&pattern=secret",
      "mode=page",
      "mode=json&outline=true",
    ]) {
      const his = await serve.fetch(`/v1/outputs/${stored}/content?${query}`, { headers: BOB });
      expect(his.status, query).toBe(404);
      expect((await json<ErrorBody>(his)).code).toBe("OUTPUT_NOT_FOUND");
    }
    await hiddenFromBob(
      `/v1/outputs/${stored}/content?mode=slice`,
      `/v1/outputs/${UNKNOWN_OUTPUT}/content?mode=slice`,
    );
  });

  it("raw bytes, with a Range too", async () => {
    await hiddenFromBob(`/v1/outputs/${stored}/raw`, `/v1/outputs/${UNKNOWN_OUTPUT}/raw`);
    const ranged = await serve.fetch(`/v1/outputs/${stored}/raw`, {
      headers: { ...BOB, range: "bytes=0-3" },
    });
    expect(ranged.status).toBe(404);
  });

  it("event streams", async () => {
    const his = await serve.fetch(`/v1/sessions/${session}/events`, { headers: BOB });
    expect(his.status).toBe(404);
    await his.arrayBuffer();
    const hers = await serve.fetch(`/v1/sessions/${session}/events`, { headers: ALICE });
    expect(hers.status).toBe(200);
    await hers.body?.cancel();
  });

  it("sessions: history, outputs, list, continue, stop", async () => {
    await hiddenFromBob(`/v1/sessions/${session}`, `/v1/sessions/${UNKNOWN_SESSION}`);
    const list = await json<{ sessions: { id: string }[] }>(
      await serve.fetch("/v1/sessions", { headers: BOB }),
    );
    expect(list.sessions.map((s) => s.id)).not.toContain(session);
    const outputs = await json<{ outputs: unknown[] }>(
      await serve.fetch(`/v1/sessions/${session}/outputs`, { headers: BOB }),
    );
    expect(outputs.outputs).toEqual([]);
    for (const verb of ["messages", "stop", "abort"]) {
      const res = await serve.fetch(`/v1/sessions/${session}/${verb}`, {
        method: "POST",
        headers: { ...BOB, "content-type": "application/json" },
        body: JSON.stringify({ prompt: "mine now" }),
      });
      expect(res.status, verb).toBe(404);
    }
  });

  it("continuation reads", async () => {
    // Bob naming alice's session reads his own namespace: the answer an unknown name gets.
    const read = async (id: string) =>
      json<{ text: string; isError: boolean }>(
        await serve.fetch(`/v1/sessions/${id}/continuation?tool_call_id=x`, { headers: BOB }),
      );
    const his = await read(session);
    const unknown = await read(UNKNOWN_SESSION);
    expect(his.isError).toBe(true);
    expect(his.text.replaceAll(/ses_\w+/g, "ID")).toBe(unknown.text.replaceAll(/ses_\w+/g, "ID"));
    // Under the same session name, bob's "shared-name" is his own, empty one.
    const named = await json<{ isError: boolean }>(
      await serve.fetch("/v1/sessions/shared-name/continuation?tool_call_id=call_1&offset=0", {
        headers: BOB,
      }),
    );
    expect(named.isError).toBe(true);
    const hers = await json<{ text: string; isError: boolean }>(
      await serve.fetch("/v1/sessions/shared-name/continuation?tool_call_id=call_1&offset=0", {
        headers: ALICE,
      }),
    );
    expect(hers, hers.text).toMatchObject({ isError: false, text: "alice's secret\n" });
  });

  it("the inspector: its page holds no data, and the API behind it needs the token", async () => {
    const page = await serve.fetch("/");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain(session);
    expect(html).not.toContain("secret");
    expect((await serve.fetch(`/v1/sessions/${session}`)).status).toBe(401);
  });

  it("two tenants' sessions of the same name stay apart", async () => {
    const his = await serve.put("session=shared-name&tool=t&callId=call_1", "bob's own\n", BOB);
    const mine = await json<{ output: { id: string; sessionId: string } }>(his);
    expect(mine.output.sessionId).toBe("shared-name");
    const bobs = await json<{ outputs: { id: string }[] }>(
      await serve.fetch("/v1/sessions/shared-name/outputs", { headers: BOB }),
    );
    expect(bobs.outputs.map((o) => o.id)).toEqual([mine.output.id]);
    const alices = await json<{ outputs: { id: string }[] }>(
      await serve.fetch("/v1/sessions/shared-name/outputs", { headers: ALICE }),
    );
    expect(alices.outputs.map((o) => o.id)).toEqual([stored]);
  });
});

describe("held: tokens", () => {
  it("no token answers 401 asking for one", async () => {
    const res = await serve.fetch("/v1/sessions");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="spillway"');
    expect((await json<ErrorBody>(res)).code).toBe("UNAUTHORIZED");
  });

  it("an unknown or malformed token answers 401 the same way, whatever its length", async () => {
    for (const header of [
      "Bearer alice-token-012345678",
      "Bearer x",
      "Basic YWxpY2U6eA==",
      `Bearer ${"a".repeat(10_000)}`,
    ]) {
      const res = await serve.fetch("/v1/sessions", { headers: { authorization: header } });
      expect(res.status, header.slice(0, 20)).toBe(401);
      await res.arrayBuffer();
    }
  });
});
