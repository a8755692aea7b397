import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** spillway/server's public names, pinned (a change here is a change of the public API). */
describe("spillway/server", () => {
  it("exports exactly the pinned runtime values", async () => {
    const api = await import("./index.js");
    expect(Object.keys(api).sort()).toEqual(
      [
        "DEFAULT_HOST",
        "DEFAULT_PORT",
        "DEFAULT_THRESHOLDS",
        "EventHub",
        "FileSessionOwners",
        "localSessionRunner",
        "startServer",
        "thresholdLabel",
      ].sort(),
    );
  });

  it("is a subpath of the package", () => {
    const pkg = JSON.parse(
      readFileSync(join(import.meta.dirname, "../../package.json"), "utf8"),
    ) as {
      exports: Record<string, { import: string }>;
    };
    expect(pkg.exports["./server"]?.import).toBe("./dist/server/index.js");
  });
});
