/**
 * Every function and class a public entry point exports has JSDoc with an example, so a user
 * can see how to call it without reading the code.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const ENTRY_POINTS = [
  "src/index.ts",
  "src/agent/index.ts",
  "src/store/index.ts",
  "src/retrieval/index.ts",
  "src/testing/index.ts",
  "src/server/index.ts",
];

/** [name, module file] for every value (non-type) an index re-exports. */
function reexportedValues(indexPath: string): [string, string][] {
  const source = readFileSync(join(root, indexPath), "utf8");
  const out: [string, string][] = [];
  for (const block of source.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s+from\s+"([^"]+)"/g)) {
    if (block[1]) continue;
    const module = resolve(root, dirname(indexPath), block[3]!.replace(/\.js$/, ".ts"));
    for (const part of block[2]!.split(",")) {
      const name = part.trim();
      if (!name || name.startsWith("type ")) continue;
      out.push([name.split(/\s+as\s+/)[0]!, module]);
    }
  }
  return out;
}

/** The JSDoc block right before `export … name` in `file` (following one re-export hop). */
function docOf(name: string, file: string, hops = 0): string | undefined {
  if (!existsSync(file)) return undefined;
  const source = readFileSync(file, "utf8");
  const declaration = new RegExp(
    `(/\\*\\*(?:(?!\\*/)[\\s\\S])*\\*/)\\s*export\\s+(?:async\\s+)?(?:function\\*?|class|const)\\s+${name}\\b`,
  ).exec(source);
  if (declaration) return declaration[1];
  const reexport = new RegExp(`export\\s+\\{[^}]*\\b${name}\\b[^}]*\\}\\s+from\\s+"([^"]+)"`).exec(
    source,
  );
  if (reexport && hops < 3)
    return docOf(name, resolve(dirname(file), reexport[1]!.replace(/\.js$/, ".ts")), hops + 1);
  return undefined;
}

/** Constants are data, not calls: an example is asked of functions and classes. */
const isConstant = (name: string) => /^[A-Z][A-Z0-9_]+$/.test(name);

describe("JSDoc on the public API", () => {
  for (const entry of ENTRY_POINTS)
    it(`every function and class exported by ${entry} has JSDoc with an @example`, () => {
      const functions = reexportedValues(entry).filter(([name]) => !isConstant(name));
      expect(functions.length).toBeGreaterThan(0);
      const missing = functions
        .filter(([name, file]) => !docOf(name, file)?.includes("@example"))
        .map(([name, file]) => `${name} (${file.slice(root.length + 1)})`);
      expect(missing).toEqual([]);
    });
});
