import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../test/helpers/temp-store.js";
import { isSpillwayError, type SpillwayError } from "../../core/errors.js";
import type { CatalogModel } from "./catalog.js";
import { pullModel } from "./pull.js";

const payload = randomBytes(300_000);
const sha256 = createHash("sha256").update(payload).digest("hex");
let server: Server | undefined;
let requests = 0;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A real HTTP server: /ok serves the payload, /wrong other bytes, /cut stops halfway, /missing 404s. */
async function serve(): Promise<string> {
  requests = 0;
  server = createServer((request, response) => {
    requests++;
    if (request.url?.endsWith("/missing.gguf")) {
      response.writeHead(404).end("not found");
      return;
    }
    response.writeHead(200, { "content-length": String(payload.length) });
    if (request.url?.endsWith("/wrong.gguf")) {
      response.end(Buffer.alloc(payload.length, 7));
    } else if (request.url?.endsWith("/cut.gguf")) {
      response.write(payload.subarray(0, 100_000), () => response.destroy());
    } else {
      // Several writes so progress is reported more than once.
      for (let i = 0; i < payload.length; i += 65_536)
        response.write(payload.subarray(i, i + 65_536));
      response.end();
    }
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

function model(base: string, file: string): CatalogModel {
  return {
    name: file.replace(/\.gguf$/, ""),
    file: "tiny.gguf",
    url: `${base}/${file}`,
    sha256,
    bytes: payload.length,
    description: "test payload",
  };
}

async function failure(promise: Promise<unknown>): Promise<SpillwayError> {
  const error = await promise.catch((e: unknown) => e);
  expect(isSpillwayError(error, "DOWNLOAD_FAILED"), String(error)).toBe(true);
  return error as SpillwayError;
}

describe("pullModel over real HTTP", () => {
  it("downloads with progress, checks the SHA-256, and skips a verified file next time", async () => {
    const base = await serve();
    const dir = await tempDir("spillway-pull-");
    const progress: number[] = [];
    const result = await pullModel(model(base, "ok.gguf"), {
      dir,
      onProgress: (p) => progress.push(p.receivedBytes / p.totalBytes),
    });
    expect(result).toMatchObject({ path: join(dir, "tiny.gguf"), sha256, alreadyPresent: false });
    expect((await readFile(result.path)).equals(payload)).toBe(true);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(1);
    const again = await pullModel(model(base, "ok.gguf"), { dir });
    expect(again.alreadyPresent).toBe(true);
    expect(requests).toBe(1);
  });

  it("keeps nothing when the checksum does not match", async () => {
    const base = await serve();
    const dir = await tempDir("spillway-pull-");
    const error = await failure(pullModel(model(base, "wrong.gguf"), { dir }));
    expect(error.message).toContain("checksum mismatch");
    expect(error.message).toContain(`place it at ${join(dir, "tiny.gguf")}`);
    expect(await readdir(dir)).toEqual([]);
  });

  it("keeps nothing when the download breaks off", async () => {
    const base = await serve();
    const dir = await tempDir("spillway-pull-");
    const error = await failure(pullModel(model(base, "cut.gguf"), { dir }));
    expect(error.message).toMatch(/broke off after \d+ of 300000 bytes|received \d+ bytes/);
    expect(await readdir(dir)).toEqual([]);
    expect(existsSync(join(dir, "tiny.gguf"))).toBe(false);
  });

  it("says the HTTP status, and that the host is unreachable when offline", async () => {
    const base = await serve();
    const dir = await tempDir("spillway-pull-");
    expect((await failure(pullModel(model(base, "missing.gguf"), { dir }))).message).toContain(
      "HTTP 404",
    );
    const offline = await failure(
      pullModel(model("http://no-such-host.invalid", "ok.gguf"), { dir }),
    );
    expect(offline.message).toContain("host not found: this machine is offline");
    expect(offline.message).toContain("Download http://no-such-host.invalid/ok.gguf");
  });

  it("uses a mirror endpoint in place of huggingface.co", async () => {
    const base = await serve();
    const dir = await tempDir("spillway-pull-");
    const hf = { ...model(base, "ok.gguf"), url: "https://huggingface.co/x/resolve/main/ok.gguf" };
    const result = await pullModel(hf, { dir, env: { HF_ENDPOINT: base } });
    expect(result.alreadyPresent).toBe(false);
    expect(requests).toBe(1);
  });
});
