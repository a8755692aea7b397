/**
 * Probes of how a real `spillway serve` process answers what is the client's fault (4xx with
 * the right words, no stack trace, nothing logged as an internal error), and of its signals:
 * SIGHUP reloads the tokens file and never stops it.
 */
import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, json, type ServeProcess, startServe, stopAll, TOKENS } from "./serve-process.js";

type ErrorBody = { code: string; message: string; details: Record<string, unknown> };

let serve: ServeProcess & { readonly tokensFile?: string };
beforeAll(async () => {
  serve = await startServe({ tenants: true });
});
afterAll(stopAll);

/** No line of a stack trace, and no internal error, in what the server logged since `from`. */
function expectQuietLog(from: number): void {
  const logged = serve.stderr().slice(from);
  expect(logged).not.toMatch(/\n\s+at |INTERNAL|Error:/);
}

describe("defect: a JSON query on deeply nested JSON answered 500", () => {
  it("answers 422 QUERY_TOO_COSTLY naming the query, for any query, and logs nothing", async () => {
    const from = serve.stderr().length;
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const stored = await serve.put("session=deep&tool=t", deep, ALICE);
    const { output } = await json<{ output: { id: string; kind: string } }>(stored);
    expect(output.kind).toBe("json");
    for (const query of ["$[0][0]", "$..*"]) {
      const res = await serve.fetch(
        `/v1/outputs/${output.id}/content?mode=json&query=${encodeURIComponent(query)}`,
        { headers: ALICE },
      );
      expect(res.status).toBe(422);
      const body = await json<ErrorBody>(res);
      expect(body.code).toBe("QUERY_TOO_COSTLY");
      expect(body.message).toContain(`query ${JSON.stringify(query)}`);
      expect(body.message).not.toContain("outline");
      expect(JSON.stringify(body)).not.toMatch(/\n\s+at /);
    }
    expectQuietLog(from);
  });
});

describe("defect: GET /x%00.js answered 500", () => {
  it("answers asset paths no file can have without an error, and without authentication", async () => {
    const from = serve.stderr().length;
    for (const path of ["/x%00.js", "/%00", "/index.html/x.js", `/${"a".repeat(5000)}.js`]) {
      const res = await serve.fetch(path);
      expect(res.status, path).toBeLessThan(500);
      const text = await res.text();
      expect(text, path).not.toContain("INTERNAL");
    }
    expectQuietLog(from);
  });
});

describe("defect: cross-site writes to the token-less server (the HTTP rules)", () => {
  it("refuses another site's Origin and writes a page could send without a preflight", async () => {
    const local = await startServe();
    const post = (headers: Record<string, string>, body: string | undefined = "x") =>
      local.fetch("/v1/outputs?session=csrf&tool=t", { method: "POST", headers, body });
    const refused: [Record<string, string>, number, string][] = [
      [{ "content-type": "text/plain" }, 415, "UNSUPPORTED_MEDIA_TYPE"],
      [{ "content-type": "application/x-www-form-urlencoded" }, 415, "UNSUPPORTED_MEDIA_TYPE"],
      [{ "content-type": "multipart/form-data; boundary=x" }, 415, "UNSUPPORTED_MEDIA_TYPE"],
      [
        { "content-type": "application/octet-stream", origin: "https://evil.example" },
        403,
        "FORBIDDEN",
      ],
      [{ "x-spillway-client": "1", origin: "null" }, 403, "FORBIDDEN"],
    ];
    for (const [headers, status, code] of refused) {
      const res = await post(headers);
      expect(res.status, JSON.stringify(headers)).toBe(status);
      expect((await json<ErrorBody>(res)).code).toBe(code);
    }
    const blob = await local.fetch("/v1/outputs?session=csrf&tool=t", {
      method: "POST",
      body: new Blob(["x"]),
    });
    expect(blob.status).toBe(415);
    const stop = await local.fetch("/v1/sessions/any/stop", { method: "POST" });
    expect(stop.status).toBe(415);
    const stored = await json<{ outputs: unknown[] }>(
      await local.fetch("/v1/sessions/csrf/outputs"),
    );
    expect(stored.outputs).toEqual([]);
    // What clients send still works: a binary type, a JSON body, our header, the server's own origin.
    expect((await post({ "content-type": "application/octet-stream" })).status).toBe(201);
    expect((await post({ "x-spillway-client": "curl", "content-type": "text/plain" })).status).toBe(
      201,
    );
    expect(
      (await post({ "content-type": "application/octet-stream", origin: local.url })).status,
    ).toBe(201);
  });
});

describe("signals", () => {
  it("SIGHUP reloads the tokens file: a removed token is refused, an added one works; the server runs on", async () => {
    const newcomer = "carol-token-0123456789";
    const before = await serve.fetch("/v1/sessions", { headers: ALICE });
    expect(before.status).toBe(200);
    await writeFile(serve.tokensFile!, JSON.stringify({ bob: TOKENS.bob, carol: newcomer }));
    serve.child.kill("SIGHUP");
    for (let i = 0; i < 50 && !serve.stderr().includes("reloaded"); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(serve.stderr()).toMatch(/reloaded .*: 2 tenants/);
    expect((await serve.fetch("/v1/sessions", { headers: ALICE })).status).toBe(401);
    const carol = await serve.fetch("/v1/sessions", {
      headers: { authorization: `Bearer ${newcomer}` },
    });
    expect(carol.status).toBe(200);
    // A broken file changes nothing and says why.
    await writeFile(serve.tokensFile!, "{not json");
    serve.child.kill("SIGHUP");
    for (let i = 0; i < 50 && !serve.stderr().includes("tokens unchanged"); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(serve.stderr()).toMatch(/SIGHUP: tokens unchanged: .*is not JSON/);
    expect(
      (await serve.fetch("/v1/sessions", { headers: { authorization: `Bearer ${newcomer}` } }))
        .status,
    ).toBe(200);
    expect(serve.child.exitCode).toBeNull();
    expect(serve.child.signalCode).toBeNull();
  });
});
