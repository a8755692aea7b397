import { describe, expect, it } from "vitest";
import { isSpillwayError } from "../../core/errors.js";
import { importNodeLlama } from "./node-llama.js";

describe("importNodeLlama", () => {
  it("says the one command that adds node-llama-cpp when it is missing", async () => {
    const missing = Object.assign(new Error("Cannot find package 'node-llama-cpp'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const error = await importNodeLlama(() => Promise.reject(missing)).catch((e: unknown) => e);
    expect(isSpillwayError(error, "DEPENDENCY_MISSING")).toBe(true);
    expect((error as Error).message).toContain("npm install node-llama-cpp");
  });

  it("passes other failures through unchanged", async () => {
    const broken = new Error("bad binary");
    await expect(importNodeLlama(() => Promise.reject(broken))).rejects.toBe(broken);
  });

  it("loads the installed package (a devDependency of this repository)", async () => {
    const module = await importNodeLlama();
    expect(typeof module.getLlama).toBe("function");
  });
});
