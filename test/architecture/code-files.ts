import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

/** The directories whose code the project writes (generated and installed code aside). */
export const CODE_DIRS = [
  "src",
  "test",
  "bench",
  "eval",
  "web/inspector/src",
  "examples",
  "scripts",
];

/**
 * Every file of code under `dir`, relative to `root`: TypeScript, JavaScript, CSS, Python and
 * shell.
 *
 * @example
 * const files = CODE_DIRS.flatMap((dir) => codeFiles(root, dir));
 */
export function codeFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|js|mjs|cjs|css|py|sh)$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((path) => !/(^|\/)(node_modules|dist)\//.test(path));
}
