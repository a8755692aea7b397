/**
 * Probes that held, against real `spillway serve` processes (the built CLI): binding, Host and
 * CORS checks, traversal, Range abuse, JSONPath injection, regex bombs, concurrent and killed
 * uploads, body limits, agent paths.
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, CLI_ENV } from "../helpers/built-cli.js";
import { fileDir, json, type ServeProcess, startServe, stopAll } from "./serve-process.js";

let serve: ServeProcess;
beforeAll(async () => {
  serve = await startServe({ args: ["--max-output-bytes", "100000000"] });
});
afterAll(stopAll);

/** A raw request (no URL normalization, any Host): status, headers and body. */
function raw(
  target: ServeProcess,
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
  body?: string | Buffer,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: target.port, path, method, headers, agent: false },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const sha = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

describe("held: who may connect", () => {
  it("refuses to listen beyond loopback without a token", async () => {
    const child = spawn(
      process.execPath,
      [BIN, "--home", await fileDir(), "serve", "--host", "0.0.0.0", "--port", "0"],
      {
        env: CLI_ENV,
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(code).not.toBe(0);
    expect(stderr).toContain("Refusing to listen on 0.0.0.0 without a token");
  });

  it("without a token, answers only loopback Host names (DNS rebinding)", async () => {
    for (const host of [
      "evil.example",
      `evil.example:${serve.port}`,
      "127.0.0.1.evil.example",
      "127.0.0.1:1",
    ]) {
      const res = await raw(serve, "/v1/sessions", { host });
      expect(res.status, host).toBe(403);
    }
    expect((await raw(serve, "/v1/sessions", { host: `localhost:${serve.port}` })).status).toBe(
      200,
    );
  });

  it("grants CORS only to --cors origins", async () => {
    const cors = await startServe({ args: ["--cors", "http://app.example"] });
    const preflight = (origin: string) =>
      raw(
        cors,
        "/v1/outputs",
        {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type",
        },
        "OPTIONS",
      );
    const allowed = await preflight("http://app.example");
    expect(allowed.headers["access-control-allow-origin"]).toBe("http://app.example");
    const other = await preflight("http://evil.example");
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("held: paths and ranges", () => {
  let id: string;
  beforeAll(async () => {
    const res = await serve.put("session=paths&tool=t", "0123456789");
    id = (await json<{ output: { id: string } }>(res)).output.id;
  });

  it("ids with traversal never reach a file", async () => {
    for (const path of [
      "/v1/outputs/..%2F..%2Fspillway.db/raw",
      "/v1/outputs/out_..%2F..%2Fspillway.db",
      "/v1/outputs/%2e%2e/raw",
      "/v1/sessions/..%2F..%2Fserver%2Fowners.jsonl/outputs",
      "/v1/sessions/..%2F..%2Fetc%2Fpasswd",
    ]) {
      const res = await raw(serve, path);
      expect([400, 404], path).toContain(res.status);
      expect(res.body).not.toContain("SQLite format");
      expect(res.body).not.toContain("root:");
    }
  });

  it("asset paths with traversal stay inside the inspector's folder", async () => {
    for (const path of [
      "/../../../../etc/passwd",
      "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
      "/..%2f..%2f..%2f..%2fetc%2fpasswd",
      "/assets/..%2f..%2f..%2fpackage.json",
      "/..%5c..%5cpackage.json",
    ]) {
      const res = await raw(serve, path);
      expect(res.status, path).toBeLessThan(500);
      expect(res.body, path).not.toContain("root:");
      expect(res.body, path).not.toContain('"devDependencies"');
    }
  });

  it("Range abuse answers 416 or the whole output, never other bytes", async () => {
    const cases: [string, number, string | null][] = [
      ["bytes=2-4", 206, "234"],
      ["bytes=0-2,5-6", 200, "0123456789"],
      ["bytes=5-2", 416, null],
      ["bytes=10-", 416, null],
      ["bytes=-0", 416, null],
      ["bytes=0-99999999999999999999", 206, "0123456789"],
      ["bytes=-3", 206, "789"],
      ["bytes=abc", 416, null],
      ["items=0-1", 416, null],
    ];
    for (const [range, status, body] of cases) {
      const res = await raw(serve, `/v1/outputs/${id}/raw`, { range });
      expect(res.status, range).toBe(status);
      if (body !== null) expect(res.body, range).toBe(body);
    }
  });
});

describe("held: costly reads", () => {
  it("JSONPath with script stays inert", async () => {
    const put = await serve.put(
      "session=jsonpath&tool=t",
      JSON.stringify({ items: [{ a: 1 }, { a: 2 }] }),
    );
    const target = (await json<{ output: { id: string } }>(put)).output.id;
    for (const query of [
      "$[?(@.constructor.constructor('return process')().exit(1))]",
      "$..[?(process.exit(1))]",
      "$.items[?(require('fs'))]",
      "$[?(this.constructor)]",
    ]) {
      const res = await serve.fetch(
        `/v1/outputs/${target}/content?mode=json&query=${encodeURIComponent(query)}`,
      );
      expect([200, 400], query).toContain(res.status);
      if (res.status === 200) expect((await json<{ matches: unknown[] }>(res)).matches).toEqual([]);
      else expect((await json<{ code: string }>(res)).code).toBe("INVALID_QUERY");
    }
    expect((await serve.fetch("/health")).status).toBe(200);
  });

  it("a regex bomb is stopped at its deadline (422) while the server keeps answering", async () => {
    const put = await serve.put("session=bomb&tool=t", `${"a".repeat(40)}!\n`);
    const target = (await json<{ output: { id: string } }>(put)).output.id;
    const bomb = serve.fetch(
      `/v1/outputs/${target}/content?mode=grep&regex=true&pattern=${encodeURIComponent("(a+)+$")}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await serve.fetch("/health")).status).toBe(200); // the event loop is free
    const res = await bomb;
    expect(res.status).toBe(422);
    expect((await json<{ code: string }>(res)).code).toBe("PATTERN_TIMEOUT");
  });
});

describe("held: uploads", () => {
  it("200 parallel uploads are each stored byte for byte", async () => {
    const bodies = Array.from({ length: 200 }, (_, i) => randomBytes(1000 + i * 97));
    const answers = await Promise.all(
      bodies.map((body, i) => serve.put(`session=parallel&tool=t&callId=c${i}&binary=true`, body)),
    );
    for (const [i, res] of answers.entries()) {
      expect(res.status).toBe(201);
      const { output } = await json<{ output: { id: string; sha256: string; byteSize: number } }>(
        res,
      );
      expect(output.sha256).toBe(sha(bodies[i]!));
      expect(output.byteSize).toBe(bodies[i]!.byteLength);
    }
    const again = await serve.fetch("/v1/sessions/parallel/outputs?limit=500");
    expect((await json<{ outputs: unknown[] }>(again)).outputs).toHaveLength(200);
  });

  it("a body over the limit is refused whatever its Content-Length says", async () => {
    const small = await startServe({ args: ["--max-output-bytes", "1000"] });
    const declared = await raw(
      small,
      "/v1/outputs?session=big&tool=t",
      { "content-type": "application/octet-stream", "content-length": "5000" },
      "POST",
      "x".repeat(5000),
    );
    expect(declared.status).toBe(413);
    const chunked = await raw(
      small,
      "/v1/outputs?session=big&tool=t",
      { "content-type": "application/octet-stream", "transfer-encoding": "chunked" },
      "POST",
      "x".repeat(5000),
    );
    expect(chunked.status).toBe(413);
    expect(
      await json<{ outputs: unknown[] }>(await small.fetch("/v1/sessions/big/outputs")),
    ).toMatchObject({ outputs: [] });
  });

  it("SIGKILL during a 40 MB upload leaves no output, and the store serves on", async () => {
    const home = join(await fileDir(), "home");
    const first = await startServe({ home });
    const req = request({
      host: "127.0.0.1",
      port: first.port,
      method: "POST",
      path: "/v1/outputs?session=killed&tool=t",
      headers: {
        "content-type": "application/octet-stream",
        "content-length": String(40 * 1024 * 1024),
      },
      agent: false,
    });
    req.on("error", () => {});
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < 20; i++) req.write(chunk);
    await new Promise((resolve) => setTimeout(resolve, 500));
    first.child.kill("SIGKILL");
    await new Promise((done) => first.child.once("exit", done));
    req.destroy();
    const second = await startServe({ home });
    const listed = await json<{ outputs: unknown[] }>(
      await second.fetch("/v1/sessions/killed/outputs"),
    );
    expect(listed.outputs).toEqual([]);
    expect((await second.put("session=after&tool=t", "still works")).status).toBe(201);
  });
});

describe("held: agent paths", () => {
  it("an agent must be a file under --agents-dir; inline agents may not declare commands", async () => {
    const dir = await fileDir();
    const agents = join(dir, "agents");
    await mkdir(agents);
    await writeFile(join(dir, "outside.md"), "---\nmodels: [x/y]\n---\nhi\n");
    await symlink(join(dir, "outside.md"), join(agents, "link.md"));
    const s = await startServe({ cwd: agents, args: ["--agents-dir", agents] });
    const start = (agent: unknown) =>
      s.fetch("/v1/sessions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ agent, prompt: "go" }),
      });
    for (const agent of [
      { path: "../outside.md" },
      { path: join(dir, "outside.md") },
      { path: "link.md" },
      { markdown: "---\nmodels: [x/y]\nmcpServers:\n  sh:\n    command: /bin/sh\n---\nhi\n" },
    ]) {
      const res = await start(agent);
      expect(res.status, JSON.stringify(agent)).toBe(400);
      await res.arrayBuffer();
    }
  });
});
