import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { serverFixture } from "../../test/helpers/server-fixture.js";
import { KUBECTL_PODS_YAML } from "../retrieval/fixtures/record-shapes.js";

const idle = () => ({ text: "unused" });
const sha = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

async function store(
  f: { http: { url: string } },
  body: string | Uint8Array,
  query: string,
  headers: Record<string, string> = {},
) {
  return fetch(`${f.http.url}/v1/outputs?${query}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/octet-stream", ...headers },
  });
}

describe("outputs over HTTP", () => {
  it("stores a streamed body with its call, answers the record and handle message, and reads it back in every mode", async () => {
    const f = await serverFixture(idle);
    const lines = Array.from(
      { length: 5000 },
      (_, i) => `row ${i + 1} ${i === 4321 ? "NEEDLE-42" : "ok"}`,
    );
    const text = `${lines.join("\n")}\n`;
    const res = await store(
      f,
      text,
      "session=build-7&tool=fs__read_file&args=%7B%22path%22%3A%22a.log%22%7D&callId=call_9",
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as { output: Record<string, unknown>; handleMessage: string };
    const id = body.output.id as string;
    expect(res.headers.get("location")).toBe(`/v1/outputs/${id}`);
    expect(body.output).toMatchObject({
      sessionId: "build-7",
      toolName: "fs__read_file",
      toolArgs: '{"path":"a.log"}',
      toolCallId: "call_9",
      status: "ready",
      byteSize: Buffer.byteLength(text),
      lineCount: 5000,
      sha256: sha(text),
    });
    expect(body.handleMessage).toContain(`stored whole as ${id}`);

    const record = await (await f.get(`/v1/outputs/${id}`)).json();
    expect(record).toMatchObject({ id, sha256: sha(text) });

    const slice = (await (
      await f.get(`/v1/outputs/${id}/content?mode=slice&lineStart=4322&lineEnd=4322`)
    ).json()) as {
      text: string;
      provenance: { lineStart: number; sha256: string };
    };
    expect(slice.text).toBe("row 4322 NEEDLE-42\n");
    expect(slice.provenance).toMatchObject({ lineStart: 4322, sha256: sha(text) });

    const grep = (await (
      await f.get(`/v1/outputs/${id}/content?mode=grep&pattern=NEEDLE-42&context=1`)
    ).json()) as {
      matches: { line: number; before: unknown[] }[];
    };
    expect(grep.matches.map((m) => m.line)).toEqual([4322]);
    expect(grep.matches[0]!.before).toHaveLength(1);

    let cursor: number | null = 0;
    let paged = "";
    while (cursor !== null) {
      const page = (await (
        await f.get(`/v1/outputs/${id}/content?mode=page&cursor=${cursor}&maxChars=7000`)
      ).json()) as {
        text: string;
        nextCursor: number | null;
      };
      paged += page.text;
      cursor = page.nextCursor;
    }
    expect(sha(paged)).toBe(sha(text));
    // Reads are counted in batches, off the request path.
    await f.http.deps.reader.flush();
    expect(
      (await f.stores.outputs.get(id, { allSessions: true })).readCount,
    ).toBeGreaterThanOrEqual(3);

    const list = (await (await f.get("/v1/sessions/build-7/outputs")).json()) as {
      outputs: { id: string }[];
    };
    expect(list.outputs.map((o) => o.id)).toEqual([id]);
  });

  it("greps with record=true: each match's record, once", async () => {
    const f = await serverFixture(idle);
    const res = await store(f, KUBECTL_PODS_YAML, "session=s&tool=kubectl&args=%7B%7D");
    const { output } = (await res.json()) as { output: { id: string } };
    const grep = (await (
      await f.get(`/v1/outputs/${output.id}/content?mode=grep&pattern=k8w4d&record=true`)
    ).json()) as {
      matches: { line: number; recordIndex: number }[];
      records: { kind: string; lineStart: number; text: string }[];
    };
    expect(grep.matches).toEqual([expect.objectContaining({ line: 40, recordIndex: 0 })]);
    expect(grep.records).toHaveLength(1);
    expect(grep.records[0]).toMatchObject({ kind: "yaml-item", lineStart: 32 });
    expect(grep.records[0]!.text).toContain("image: registry.example.com/checkout:2.15.0-rc1");
    const bad = await f.get(`/v1/outputs/${output.id}/content?mode=slice&record=true`);
    expect(bad.status).toBe(400);
  });

  it("answers JSON queries and outlines", async () => {
    const f = await serverFixture(idle);
    const doc = JSON.stringify({
      items: [
        { id: 1, status: "ok" },
        { id: 2, status: "failed" },
      ],
    });
    const { output } = (await (await store(f, doc, "session=s&tool=api")).json()) as {
      output: { id: string };
    };
    const query = encodeURIComponent('$.items[?(@.status=="failed")].id');
    const result = (await (
      await f.get(`/v1/outputs/${output.id}/content?mode=json&query=${query}`)
    ).json()) as {
      matches: { value: unknown; pointer: string }[];
    };
    expect(result.matches).toEqual([expect.objectContaining({ value: 2, pointer: "/items/1/id" })]);
    const outline = (await (
      await f.get(`/v1/outputs/${output.id}/content?mode=json&outline=true`)
    ).json()) as {
      outline: string;
    };
    expect(outline.outline).toContain("items");
  });

  it("streams raw bytes with Range, and refuses ranges outside the output", async () => {
    const f = await serverFixture(idle);
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 251);
    const { output } = (await (
      await store(f, bytes, "session=bin&tool=img&binary=true&mediaType=image%2Fpng")
    ).json()) as {
      output: { id: string; kind: string };
    };
    expect(output.kind).toBe("binary");
    const whole = await f.get(`/v1/outputs/${output.id}/raw`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("image/png");
    expect(sha(new Uint8Array(await whole.arrayBuffer()))).toBe(sha(bytes));
    const part = await f.get(`/v1/outputs/${output.id}/raw`, { range: "bytes=1000-1999" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 1000-1999/300000");
    expect(Buffer.from(await part.arrayBuffer())).toEqual(Buffer.from(bytes.subarray(1000, 2000)));
    const suffix = await f.get(`/v1/outputs/${output.id}/raw`, { range: "bytes=-10" });
    expect(Buffer.from(await suffix.arrayBuffer())).toEqual(Buffer.from(bytes.subarray(299_990)));
    const outside = await f.get(`/v1/outputs/${output.id}/raw`, { range: "bytes=400000-" });
    expect(outside.status).toBe(416);
    expect(await outside.json()).toMatchObject({
      code: "INVALID_RANGE",
      details: { field: "header.range" },
    });
  });

  it("names the field at fault with 400, answers 404 for unknown ids, 409 for running outputs, 413 past the body limit", async () => {
    const f = await serverFixture(idle, { maxOutputBytes: 1000, maxJsonBytes: 200 });
    const missing = await store(f, "x", "tool=t");
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      code: "INVALID_ARGUMENT",
      details: { fields: [{ field: "query.session" }] },
    });
    const stray = await store(f, "x", "session=s&tool=t&colour=red");
    expect(
      ((await stray.json()) as { details: { fields: { field: string }[] } }).details.fields[0]!
        .field,
    ).toBe("query.colour");
    const big = await store(f, "y".repeat(5000), "session=s&tool=t");
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { limit: 1000 } });
    // Nothing was stored by the refused body.
    expect(
      ((await (await f.get("/v1/sessions/s/outputs")).json()) as { outputs: unknown[] }).outputs,
    ).toHaveLength(0);
    const unknown = await f.get("/v1/outputs/out_0000000000000000000000000a");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "OUTPUT_NOT_FOUND" });
    const malformed = await f.get("/v1/outputs/nope");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ details: { fields: [{ field: "path.id" }] } });
    const ok = (await (await store(f, "a\nb\n", "session=s&tool=t")).json()) as {
      output: { id: string };
    };
    const badMode = await f.get(`/v1/outputs/${ok.output.id}/content?mode=tail`);
    expect(await badMode.json()).toMatchObject({ details: { fields: [{ field: "query.mode" }] } });
    const noPattern = await f.get(`/v1/outputs/${ok.output.id}/content?mode=grep`);
    expect(await noPattern.json()).toMatchObject({
      details: { fields: [{ field: "query.pattern" }] },
    });
    const badRegex = await f.get(
      `/v1/outputs/${ok.output.id}/content?mode=grep&regex=true&pattern=(a`,
    );
    expect(badRegex.status).toBe(400);
    expect(await badRegex.json()).toMatchObject({ code: "INVALID_PATTERN" });
    const running = await f.stores.outputs.begin({
      sessionId: "s",
      toolName: "slow",
      toolArgs: "{}",
    });
    const notReady = await f.get(`/v1/outputs/${running.id}/content?mode=slice`);
    expect(notReady.status).toBe(409);
    expect(await notReady.json()).toMatchObject({ code: "OUTPUT_NOT_READY" });
    const json = await f.post("/v1/sessions", { prompt: "x".repeat(500), agent: { path: "a.md" } });
    expect(json.status).toBe(413);
    const notJson = await f.post("/v1/sessions", "{", {});
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ details: { field: "body" } });
    const route = await f.get("/v1/nothing-here");
    expect(route.status).toBe(404);
    expect(await route.json()).toMatchObject({ code: "NOT_FOUND" });
  });

  it("bounds a catastrophic regular expression with the retrieval deadline (422) and keeps answering", async () => {
    const f = await serverFixture(idle, { regexTimeoutMs: 300 });
    const { output } = (await (
      await store(f, `${"a".repeat(40_000)}!\n`, "session=re&tool=t")
    ).json()) as {
      output: { id: string };
    };
    const slow = await f.get(
      `/v1/outputs/${output.id}/content?mode=grep&regex=true&pattern=${encodeURIComponent("(a+)+$")}`,
    );
    expect(slow.status).toBe(422);
    expect(await slow.json()).toMatchObject({ code: "PATTERN_TIMEOUT" });
    expect((await f.get(`/v1/outputs/${output.id}`)).status).toBe(200);
  });

  it("serves an OpenAPI 3.1 document listing every route, generated from the zod schemas", async () => {
    const f = await serverFixture(idle);
    const doc = (await (await f.get("/openapi.json")).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { parameters: { name: string }[] }>>;
    };
    expect(doc.openapi).toBe("3.1.0");
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        "GET /health",
        "GET /openapi.json",
        "POST /v1/outputs",
        "GET /v1/outputs/{id}",
        "GET /v1/outputs/{id}/content",
        "GET /v1/outputs/{id}/raw",
        "GET /v1/sessions/{id}/outputs",
        "GET /v1/sessions/{id}/search",
        "POST /v1/sessions",
        "GET /v1/sessions",
        "GET /v1/sessions/{id}",
        "POST /v1/sessions/{id}/messages",
        "POST /v1/sessions/{id}/stop",
        "POST /v1/sessions/{id}/abort",
        "GET /v1/sessions/{id}/continuation",
        "GET /v1/sessions/{id}/events",
      ].sort(),
    );
    const content = doc.paths["/v1/outputs/{id}/content"]!.get!;
    expect(content.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(["id", "mode", "pattern", "cursor", "lineStart"]),
    );
  });
});
