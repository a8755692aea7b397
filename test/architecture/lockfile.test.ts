/**
 * The lockfile is complete: `npm ci` (the first step of CI and of a fresh install) refuses a
 * lockfile that leaves out an optional platform package a locked package declares. npm writes
 * such a lockfile without a word when the registry it resolved against does not serve that
 * platform package at that version, so this test catches it before CI does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const root = join(import.meta.dirname, "../..");

const LockedPackage = z.looseObject({
  version: z.string().optional(),
  optionalDependencies: z.record(z.string(), z.string()).optional(),
});
const Lockfile = z.looseObject({
  lockfileVersion: z.number(),
  packages: z.record(z.string(), LockedPackage),
});

/** Where npm would look for `name` when installed by the package at `path` (nearest node_modules). */
function resolves(packages: Record<string, unknown>, path: string, name: string): boolean {
  let dir = path;
  for (;;) {
    if (`${dir ? `${dir}/` : ""}node_modules/${name}` in packages) return true;
    const cut = dir.lastIndexOf("/node_modules/");
    if (cut >= 0) dir = dir.slice(0, cut);
    else if (dir === "") return false;
    else dir = "";
  }
}

describe("package-lock.json", () => {
  const lock = Lockfile.parse(JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")));

  it("is lockfile version 3", () => {
    expect(lock.lockfileVersion).toBe(3);
  });

  it("holds every optional dependency its packages declare (npm ci refuses it otherwise)", () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        if (!resolves(lock.packages, path, name)) missing.push(`${path || "(root)"} -> ${name}`);
      }
    }
    expect(
      missing,
      "pin the package to a version whose every platform package the registry serves",
    ).toEqual([]);
  });

  it("locks the versions package.json asks for", () => {
    const manifest = z
      .looseObject({
        dependencies: z.record(z.string(), z.string()).optional(),
        devDependencies: z.record(z.string(), z.string()).optional(),
      })
      .parse(JSON.parse(readFileSync(join(root, "package.json"), "utf8")));
    const wanted = { ...manifest.dependencies, ...manifest.devDependencies };
    const rootEntry = z
      .looseObject({
        dependencies: z.record(z.string(), z.string()).optional(),
        devDependencies: z.record(z.string(), z.string()).optional(),
      })
      .parse(lock.packages[""]);
    expect({ ...rootEntry.dependencies, ...rootEntry.devDependencies }).toEqual(wanted);
  });
});
