/**
 * Probes of what one tenant (or anyone who can connect) can make a real `spillway serve`
 * process hold: regex greps queued for everyone, uploads that stall or trickle, uploads the
 * client abandons. Ordering is asserted where it can be; where a bound is needed it is the
 * server's own limit (the 5 s regex deadline, the 1 s idle timeout set here), not a
 * performance figure (those are in `npm run bench:fairness`).
 */
import { readdir } from "node:fs/promises";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, BOB, json, type ServeProcess, startServe, stopAll } from "./serve-process.js";

const BOMB = encodeURIComponent("(a+)+$");
const BOMB_TEXT = `${"a".repeat(40)}!\n`;

/** The server of the probe running now (the regex and abort probes use defaults). */
let serve: ServeProcess;
beforeAll(async () => {
  serve = await startServe({ tenants: true });
});
afterAll(stopAll);

async function store(headers: Record<string, string>, body: string): Promise<string> {
  const res = await serve.put("session=s&tool=t", body, headers);
  expect(res.status).toBe(201);
  return (await json<{ output: { id: string } }>(res)).output.id;
}

/**
 * A request on a connection of its own (fetch may queue requests behind others on a shared
 * one, which would order them by the client, not the server): its status and body.
 */
function ownConnection(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
  signal?: AbortSignal,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: serve.port, method, path, agent: false, headers, signal },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const grep = (id: string, pattern: string, headers: Record<string, string>, signal?: AbortSignal) =>
  ownConnection(
    "GET",
    `/v1/outputs/${id}/content?mode=grep&regex=true&pattern=${pattern}`,
    headers,
    undefined,
    signal,
  );

const ownConnectionPut = async (headers: Record<string, string>, body: string) =>
  (
    await ownConnection(
      "POST",
      "/v1/outputs?session=q&tool=t",
      { "content-type": "application/octet-stream", ...headers },
      body,
    )
  ).status;

describe("defect: one regex queue for everyone", () => {
  it("another tenant's trivial grep is answered before one tenant's queued catastrophic greps", async () => {
    const bombs = await store(ALICE, BOMB_TEXT);
    const mine = await store(BOB, "hello\nworld\n");
    const order: string[] = [];
    const alice = Array.from({ length: 4 }, (_, i) =>
      grep(bombs, BOMB, ALICE).then((res) => {
        order.push(`alice${i}:${res.status}`);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const bob = await grep(mine, "w.rld", BOB);
    order.push(`bob:${bob.status}`);
    expect((JSON.parse(bob.body) as { matches: { line: number }[] }).matches[0]?.line).toBe(2);
    await Promise.all(alice);
    expect(order[0]).toBe("bob:200");
    expect(order.slice(1).every((entry) => entry.endsWith(":422"))).toBe(true);
  });

  it("stops greps whose client went away: the tenant's next grep is not held behind them", async () => {
    const bombs = await store(ALICE, BOMB_TEXT);
    const controller = new AbortController();
    const abandoned = Array.from({ length: 4 }, () =>
      grep(bombs, BOMB, ALICE, controller.signal).catch((error: unknown) => error),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    await Promise.all(abandoned);
    const started = Date.now();
    const next = await grep(bombs, "a%7B3%7D!", ALICE);
    expect(next.status).toBe(200);
    // Before, the four abandoned greps ran on for their 5 s deadline each, one after another.
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

/** A raw HTTP upload: headers claiming `declared` bytes, then `first` bytes, then nothing. */
function stallingUpload(
  headers: Record<string, string>,
  declared: number,
  first: number,
): { socket: Socket; answer: Promise<string>; status: Promise<string> } {
  const socket = connect(serve.port, "127.0.0.1");
  const head = [
    "POST /v1/outputs?session=stall&tool=t HTTP/1.1",
    `Host: 127.0.0.1:${serve.port}`,
    "Content-Type: application/octet-stream",
    `Content-Length: ${declared}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    "",
    "",
  ].join("\r\n");
  socket.write(head);
  socket.write(Buffer.alloc(first, 0x61));
  let answered: (status: string) => void = () => {};
  const status = new Promise<string>((resolve) => {
    answered = resolve;
  });
  const answer = new Promise<string>((resolve) => {
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      answered(text.slice(9, 12));
    });
    socket.on("close", () => resolve(text));
    socket.on("error", () => resolve(text));
  });
  return { socket, answer, status };
}

describe("defect: stalled uploads were not bounded", () => {
  let defaults: ServeProcess;
  beforeAll(async () => {
    defaults = serve;
    serve = await startServe({
      tenants: true,
      args: ["--upload-idle-timeout", "1", "--max-uploads", "1"],
    });
  });
  afterAll(() => {
    serve = defaults;
  });

  it("drops a body that stops moving with 408, removes its temp file and closes the connection", async () => {
    const stall = stallingUpload(ALICE, 50_000_000, 5 * 1024 * 1024);
    // Over 4 MiB arrived: the payload went to a temp file, which exists while it stalls.
    let parts: string[] = [];
    for (let i = 0; i < 50 && parts.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      parts = (await readdir(join(serve.home, "tmp"))).filter((n) => n.endsWith(".part"));
    }
    expect(parts.length).toBeGreaterThan(0);
    const answer = await stall.answer;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"code":"REQUEST_TIMEOUT"');
    expect((await readdir(join(serve.home, "tmp"))).filter((n) => n.endsWith(".part"))).toEqual([]);
  });

  it("drops a one-byte trickle too", async () => {
    const trickle = stallingUpload(ALICE, 1000, 1);
    const timer = setInterval(() => trickle.socket.write("a"), 300);
    const answer = await trickle.answer;
    clearInterval(timer);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("caps a tenant's concurrent uploads; its next one waits its turn, another tenant's goes at once", async () => {
    const order: string[] = [];
    // A slow upload that keeps moving (2 KiB every 300 ms) holds alice's one slot (--max-uploads 1).
    const slow = stallingUpload(ALICE, 2_000_000, 2048);
    const feed = setInterval(() => slow.socket.write(Buffer.alloc(2048, 0x62)), 300);
    void slow.status.then((status) => order.push(`slow:${status}`));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const queued = ownConnectionPut(ALICE, "alice's second").then((status) => {
      order.push(`alice:${status}`);
    });
    order.push(`bob:${await ownConnectionPut(BOB, "bob's")}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(order).toEqual(["bob:201"]); // alice's second still waits for her slot
    // The slow one goes away: its slot passes to alice's waiting upload.
    clearInterval(feed);
    slow.socket.destroy();
    await queued;
    expect(order.at(-1)).toBe("alice:201");
  });
});

describe("defect: client-aborted uploads were logged as internal errors", () => {
  it("an upload the client abandons is not an error in the log", async () => {
    const before = serve.stderr().length;
    for (let i = 0; i < 5; i++) {
      const upload = stallingUpload(ALICE, 1_000_000, 5000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      upload.socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const logged = serve.stderr().slice(before);
    expect(logged).not.toMatch(/Error|\n\s+at /);
    // The server still answers.
    expect((await serve.fetch("/health")).status).toBe(200);
  });
});
