import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { isSpillwayError, SpillwayError } from "./errors.js";

const secondInstall = mkdtempSync(join(tmpdir(), "spillway-second-copy-"));
afterAll(() => rmSync(secondInstall, { recursive: true, force: true }));

describe("spillway errors across two copies of the package", () => {
  it("isSpillwayError recognises an error thrown by another copy, where instanceof fails", async () => {
    // A second installed copy: the same source in another place is a separate class.
    const copy = join(secondInstall, "errors.ts");
    copyFileSync(join(import.meta.dirname, "errors.ts"), copy);
    const other = (await import(
      /* @vite-ignore */ pathToFileURL(copy).href
    )) as typeof import("./errors.js");
    const foreign = new other.SpillwayError("OUTPUT_NOT_FOUND", "no such output", {
      outputId: "out_x",
    });
    expect(other.SpillwayError).not.toBe(SpillwayError);
    expect(foreign instanceof SpillwayError).toBe(false);
    expect(isSpillwayError(foreign)).toBe(true);
    expect(isSpillwayError(foreign, "OUTPUT_NOT_FOUND")).toBe(true);
    expect(isSpillwayError(foreign, "STORE_CORRUPT")).toBe(false);
    expect(SpillwayError.isInstance(foreign)).toBe(true);
  });

  it("a plain Error, or an object that only looks like one, is not a spillway error", () => {
    expect(isSpillwayError(new Error("x"))).toBe(false);
    expect(isSpillwayError({ code: "OUTPUT_NOT_FOUND", message: "x" })).toBe(false);
    expect(isSpillwayError(null)).toBe(false);
    expect(isSpillwayError("OUTPUT_NOT_FOUND")).toBe(false);
  });
});
