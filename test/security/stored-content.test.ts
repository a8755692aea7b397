/**
 * Probes on stored content: the same bytes stored as binary and as text (over HTTP between
 * tenants, from the CLI, through the gateway), and what `/raw` lets stored bytes do in a
 * browser. HTTP probes run against a real `spillway serve` process; the CLI is the built one.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readOutput } from "../../src/retrieval/read-output.js";
import { runCli } from "../helpers/built-cli.js";
import { filesystemServer, startTestGateway } from "../helpers/gateway-fixture.js";
import { tempDir } from "../helpers/temp-store.js";
import { ALICE, BOB, json, type ServeProcess, startServe, stopAll } from "./serve-process.js";

type Stored = { output: { id: string; kind: string; sha256: string } };

let serve: ServeProcess;
beforeAll(async () => {
  serve = await startServe({ tenants: true });
});
afterAll(stopAll);

describe("defect: the same bytes stored as binary, then as text", () => {
  it("HTTP: a text output of bytes another tenant stored as binary reads as text", async () => {
    for (const body of ["", "<svg><text>hello</text></svg>\nline two\n"]) {
      const binary = await serve.put("session=a&tool=img&binary=true", body, ALICE);
      expect(binary.status).toBe(201);
      const text = await serve.put("session=b&tool=read_text", body, BOB);
      expect(text.status).toBe(201);
      const { output } = await json<Stored>(text);
      expect(output.kind).not.toBe("binary");
      const raw = await serve.fetch(`/v1/outputs/${output.id}/raw`, { headers: BOB });
      expect(raw.status).toBe(200);
      expect(await raw.text()).toBe(body);
      const slice = await serve.fetch(`/v1/outputs/${output.id}/content?mode=slice`, {
        headers: BOB,
      });
      expect(slice.status).toBe(200);
      expect((await json<{ text: string }>(slice)).text).toBe(body);
    }
  });

  it("CLI: outputs put --binary f; outputs put f; outputs slice reads the second", async () => {
    const dir = await tempDir();
    const home = join(dir, "home");
    const file = join(dir, "f.txt");
    await writeFile(file, "alpha\nbeta\ngamma\n");
    const first = await runCli(["outputs", "put", "--binary", file], { cwd: dir, home });
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli(["outputs", "put", file], { cwd: dir, home });
    expect(second.code, second.stderr).toBe(0);
    const id = second.stdout.trim();
    const slice = await runCli(["outputs", "slice", id, "--lines", "2:3"], { cwd: dir, home });
    expect(slice.code, slice.stderr).toBe(0);
    expect(slice.stdout).toBe("beta\ngamma\n");
  });

  it("gateway: an SVG read with read_media_file, then read_text_file, reads as text", async () => {
    const root = await tempDir();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><text y="20">hi</text></svg>\n';
    await writeFile(join(root, "logo.svg"), svg);
    const gateway = await startTestGateway({ servers: { fs: filesystemServer(root) } });
    try {
      const path = join(root, "logo.svg");
      const media = await gateway.client.callTool({ name: "read_media_file", arguments: { path } });
      expect(media.isError).toBeFalsy();
      const text = await gateway.client.callTool({ name: "read_text_file", arguments: { path } });
      expect(text.isError).toBeFalsy();
      // Each result is stored whole (its structuredContent too, as JSON of its own).
      const stored = await gateway.stores.outputs.list({ limit: 20 });
      const asMedia = stored.find(
        (o) => o.toolName.endsWith("read_media_file") && o.kind === "binary",
      );
      expect(asMedia?.mediaType).toBe("image/svg+xml");
      const asText = stored.find(
        (o) => o.toolName.endsWith("read_text_file") && o.sha256 === asMedia?.sha256,
      );
      expect(asText?.kind).toBe("xml");
      const read = await readOutput(
        gateway.stores.outputs,
        asText!.id,
        { allSessions: true },
        { mode: "slice", lineStart: 1, lineEnd: 1 },
      );
      expect(read.found && read.text).toBe(svg);
    } finally {
      await gateway.close();
    }
  });
});

describe("defect: /raw served stored bytes as active content", () => {
  const put = async (query: string, body: string) =>
    (await json<Stored>(await serve.put(query, body, ALICE))).output.id;

  it("serves every output with nosniff and a sandboxing CSP; script-capable types only as downloads", async () => {
    const cases = [
      { query: "binary=true&mediaType=text/html", type: "text/html", attachment: true },
      { query: "binary=true&mediaType=image/svg%2Bxml", type: "image/svg+xml", attachment: true },
      { query: "binary=true&mediaType=application/xml", type: "application/xml", attachment: true },
      {
        query: "binary=true&mediaType=TEXT/HTML;%20charset=utf-8",
        type: "text/html",
        attachment: true,
      },
      {
        query: "binary=true&mediaType=not%20a%20type",
        type: "application/octet-stream",
        attachment: true,
      },
      { query: "binary=true", type: "application/octet-stream", attachment: true },
      { query: "binary=true&mediaType=image/png", type: "image/png", attachment: false },
      { query: "", type: "text/plain; charset=utf-8", attachment: false },
    ];
    for (const c of cases) {
      const id = await put(
        `session=raw&tool=t&${c.query}`,
        "<script>alert(document.domain)</script>",
      );
      const res = await serve.fetch(`/v1/outputs/${id}/raw`, { headers: ALICE });
      expect(res.status, c.query).toBe(200);
      expect(res.headers.get("content-type"), c.query).toBe(c.type);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      const disposition = res.headers.get("content-disposition");
      if (c.attachment) expect(disposition, c.query).toBe(`attachment; filename="${id}"`);
      else expect(disposition, c.query).toBeNull();
      await res.arrayBuffer();
    }
  });

  it("keeps the headers on ranges and HEAD", async () => {
    const id = await put("session=raw&tool=t&binary=true&mediaType=text/html", "<b>x</b>");
    for (const init of [
      { headers: { ...ALICE, range: "bytes=0-2" } },
      { method: "HEAD", headers: ALICE },
    ]) {
      const res = await serve.fetch(`/v1/outputs/${id}/raw`, init);
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${id}"`);
      await res.arrayBuffer();
    }
  });
});
