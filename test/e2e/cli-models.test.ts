import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runCli } from "../helpers/built-cli.js";
import { tempDir } from "../helpers/temp-store.js";

/** The smallest GGUF v3 header: one string key, no tensors. */
function tinyGguf(): Buffer {
  const u32 = (n: number) => Buffer.from(new Uint32Array([n]).buffer);
  const u64 = (n: number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    return b;
  };
  const str = (s: string) => Buffer.concat([u64(Buffer.byteLength(s)), Buffer.from(s)]);
  return Buffer.concat([
    Buffer.from("GGUF"),
    u32(3),
    u64(0),
    u64(1),
    str("general.architecture"),
    u32(8),
    str("llama"),
  ]);
}

describe("spillway models (built CLI)", () => {
  beforeAll(() => ensureBuilt(), 300_000);

  it("lists a GGUF file placed in <home>/models with what its header says", async () => {
    const dir = await tempDir("spillway-models-cli-");
    const home = join(dir, "home");
    await mkdir(join(home, "models"), { recursive: true });
    await writeFile(join(home, "models", "tiny.gguf"), tinyGguf());
    const run = await runCli(["models", "list", "--json"], { cwd: dir, home });
    expect(run.code, run.stderr).toBe(0);
    const listed = JSON.parse(run.stdout) as {
      models: { ref: string; path: string | null; info?: { architecture: string } }[];
      searched: string[];
    };
    expect(listed.models).toContainEqual(
      expect.objectContaining({
        ref: "local/tiny",
        path: join(home, "models", "tiny.gguf"),
        info: expect.objectContaining({ architecture: "llama" }),
      }),
    );
    expect(listed.models.map((m) => m.ref)).toContain("local/qwen2.5-coder-1.5b-instruct-q4_k_m");
    expect(listed.searched[0]).toBe(join(home, "models"));
  });

  it("refuses an unknown model name, listing the known ones", async () => {
    const dir = await tempDir("spillway-models-cli-");
    const run = await runCli(["models", "pull", "no-such-model"], {
      cwd: dir,
      home: join(dir, "h"),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error INVALID_ARGUMENT: There is no model named "no-such-model"');
    expect(run.stderr).toContain("qwen2.5-coder-1.5b-instruct-q4_k_m");
  });
});
