/**
 * The HTTP server's defences: loopback binding and Host names without a token, CORS off unless
 * configured, the inspector's files and nothing else, bearer tokens, tenants kept apart, the rate
 * limit.
 */
import { writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serverFixture } from "../../test/helpers/server-fixture.js";
import { tempDir } from "../../test/helpers/temp-store.js";
import { startServer } from "./serve.js";

const idle = () => ({ text: "unused" });

describe("security", () => {
  it("refuses to bind a non-loopback address without a token", async () => {
    await expect(startServer({ host: "0.0.0.0", port: 0, log: () => {} })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      details: { option: "--host" },
    });
  });

  it("without a token answers only loopback Host names; other origins are refused; CORS stays off unless configured", async () => {
    const f = await serverFixture(idle);
    const rebinding = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${f.http.url}/v1/sessions`);
      request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          headers: { host: "evil.example" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      )
        .on("error", reject)
        .end();
    });
    expect(rebinding).toBe(403);
    // Another site's page is refused outright (browser-guard.ts), and gets no CORS header.
    const plain = await f.get("/v1/sessions", { origin: "http://evil.example" });
    expect(plain.status).toBe(403);
    expect(((await plain.json()) as { code: string }).code).toBe("FORBIDDEN");
    expect(plain.headers.get("access-control-allow-origin")).toBeNull();
    expect((await f.get("/v1/sessions", { origin: f.http.url })).status).toBe(200);
    const g = await serverFixture(idle, { corsOrigins: ["http://app.example"] });
    const allowed = await g.get("/v1/sessions", { origin: "http://app.example" });
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://app.example");
  });

  it("serves the inspector's files and nothing outside them", async () => {
    const f = await serverFixture(idle);
    const get = (path: string) =>
      new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        const url = new URL(f.http.url);
        request({ host: url.hostname, port: url.port, path }, (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              type: String(res.headers["content-type"]),
              body,
            }),
          );
        })
          .on("error", reject)
          .end();
      });
    const index = await get("/");
    expect(index.type).toContain("text/html");
    for (const path of ["/..%2f..%2fpackage.json", "/%2e%2e/%2e%2e/package.json", "/%E0%A4%A"]) {
      const res = await get(path);
      expect(res.body).not.toContain('"name": "spillway"');
      expect(res.type).toContain("text/html");
    }
  });

  it("requires the bearer token when one is set", async () => {
    const f = await serverFixture(idle, { token: "t0ken-t0ken-t0ken-1" });
    const none = await f.get("/v1/sessions");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    expect(await none.json()).toMatchObject({ code: "UNAUTHORIZED" });
    expect(
      (await f.get("/v1/sessions", { authorization: "Bearer wrong-wrong-wrong-wrong" })).status,
    ).toBe(401);
    expect(
      (await f.get("/v1/sessions", { authorization: "Bearer t0ken-t0ken-t0ken-1" })).status,
    ).toBe(200);
    // The document and health need no token.
    expect((await f.get("/openapi.json")).status).toBe(200);
  });

  it("keeps tenants apart: another tenant's ids answer 404 exactly like unknown ones", async () => {
    const dir = await tempDir();
    const tokens = join(dir, "tokens.json");
    await writeFile(
      tokens,
      JSON.stringify({ alice: "alice-token-0123456789", bob: ["bob-token-0123456789"] }),
    );
    const f = await serverFixture(idle, { tokensFile: tokens });
    const alice = { authorization: "Bearer alice-token-0123456789" };
    const bob = { authorization: "Bearer bob-token-0123456789" };
    const put = (headers: Record<string, string>, text: string) =>
      fetch(`${f.http.url}/v1/outputs?session=shared-name&tool=t&callId=call_1`, {
        method: "POST",
        body: text,
        headers: { "content-type": "application/octet-stream", ...headers },
      });
    const a = (await (await put(alice, "alice's secret\n")).json()) as {
      output: { id: string; sessionId: string };
    };
    const b = (await (await put(bob, "bob's data\n")).json()) as { output: { id: string } };
    expect(a.output.sessionId).toBe("shared-name");
    const own = await f.get(`/v1/outputs/${a.output.id}/raw`, alice);
    expect(await own.text()).toBe("alice's secret\n");
    for (const path of [
      `/v1/outputs/${a.output.id}`,
      `/v1/outputs/${a.output.id}/raw`,
      `/v1/outputs/${a.output.id}/content?mode=slice`,
    ]) {
      const theirs = await f.get(path, bob);
      const unknown = await f.get(path.replace(a.output.id, "out_0000000000000000000000000z"), bob);
      expect(theirs.status).toBe(404);
      expect(unknown.status).toBe(404);
      const [t, u] = [
        (await theirs.json()) as { code: string; message: string },
        (await unknown.json()) as { code: string; message: string },
      ];
      expect(t.code).toBe(u.code);
      expect(t.message.replace(a.output.id, "ID")).toBe(
        u.message.replace("out_0000000000000000000000000z", "ID"),
      );
    }
    // A running output of bob's: bob learns it is running (409), alice only that it is not hers (404).
    const running = await f.stores.outputs.begin({
      sessionId: "bob~shared-name",
      toolName: "slow",
      toolArgs: "{}",
    });
    expect((await f.get(`/v1/outputs/${running.id}/content?mode=slice`, bob)).status).toBe(409);
    expect((await f.get(`/v1/outputs/${running.id}/content?mode=slice`, alice)).status).toBe(404);
    // Same session name, separate sessions.
    const bobList = (await (await f.get("/v1/sessions/shared-name/outputs", bob)).json()) as {
      outputs: { id: string }[];
    };
    expect(bobList.outputs.map((o) => o.id)).toEqual([running.id, b.output.id]);
    const cont = (await (
      await f.get("/v1/sessions/shared-name/continuation?tool_call_id=call_1&offset=0", bob)
    ).json()) as {
      text: string;
    };
    expect(cont.text).toBe("bob's data\n");
  });

  it("answers 429 past the rate limit, with Retry-After", async () => {
    let now = 1_000_000;
    const f = await serverFixture(idle, { rateLimit: 2, clock: () => now });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await f.get("/v1/sessions")).status);
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    const limited = await f.get("/v1/sessions");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(await limited.json()).toMatchObject({ code: "RATE_LIMITED" });
    now += 1000;
    expect((await f.get("/v1/sessions")).status).toBe(200);
  });
});
