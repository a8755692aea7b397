import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = join(import.meta.dirname, "../..");
const depcruise = join(root, "node_modules/.bin/depcruise");
const scratch = mkdtempSync(join(tmpdir(), "spillway-layers-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the project's layer rule over a tree of the given files; returns its exit code and text. */
async function cruise(files: Record<string, string>): Promise<{ code: number; text: string }> {
  const dir = mkdtempSync(join(scratch, "tree-"));
  cpSync(join(root, ".dependency-cruiser.cjs"), join(dir, ".dependency-cruiser.cjs"));
  cpSync(join(root, "tsconfig.json"), join(dir, "tsconfig.json"));
  writeFileSync(
    join(dir, "tsconfig.check.json"),
    JSON.stringify({ extends: "./tsconfig.json", include: ["src"] }),
  );
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  try {
    const { stdout } = await run(depcruise, ["--output-type", "err", "src"], { cwd: dir });
    return { code: 0, text: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, text: failed.stdout };
  }
}

describe("the layer rule (npm run lint:deps)", () => {
  it("passes on the repository itself", async () => {
    const { stdout } = await run(depcruise, ["--output-type", "err", "src"], { cwd: root });
    expect(stdout).toMatch(/no dependency violations found/);
  });

  it("accepts a downward import", async () => {
    const result = await cruise({
      "src/core/a.ts": "export const a = 1;\n",
      "src/store/b.ts": 'import { a } from "../core/a.js";\nexport const b = a;\n',
    });
    expect(result.code).toBe(0);
  });

  it("fails on an upward import, naming the rule and both files", async () => {
    const result = await cruise({
      "src/agent/a.ts": "export const a = 1;\n",
      "src/store/b.ts": 'import { a } from "../agent/a.js";\nexport const b = a;\n',
    });
    expect(result.code).not.toBe(0);
    expect(result.text).toMatch(/layer-store: src\/store\/b\.ts → src\/agent\/a\.ts/);
  });

  it("fails on an import between peers (extraction and async)", async () => {
    const result = await cruise({
      "src/async/a.ts": "export const a = 1;\n",
      "src/extraction/b.ts": 'import { a } from "../async/a.js";\nexport const b = a;\n',
    });
    expect(result.text).toMatch(/layer-extraction/);
    expect(result.code).not.toBe(0);
  });

  it("fails on an import between entry points", async () => {
    const result = await cruise({
      "src/cli/a.ts": "export const a = 1;\n",
      "src/server/b.ts": 'import { a } from "../cli/a.js";\nexport const b = a;\n',
    });
    expect(result.text).toMatch(/layer-server/);
  });

  it("fails on a cycle inside one layer", async () => {
    const result = await cruise({
      "src/agent/a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n',
      "src/agent/b.ts": 'import { a } from "./a.js";\nexport const b = () => a;\n',
    });
    expect(result.code).not.toBe(0);
    expect(result.text).toMatch(/no-circular/);
  });
});
