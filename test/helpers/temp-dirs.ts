import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";

/** A project directory and a home directory under a fresh root, per test. */
export interface ProjectDirs {
  readonly root: string;
  readonly cwd: string;
  readonly home: string;
}

/**
 * Registers hooks that give each test fresh `cwd` (project) and `home` directories, removed
 * afterwards. Read the fields inside tests (they change per test).
 */
export function projectDirs(prefix = "spillway-config-"): ProjectDirs {
  const dirs = { root: "", cwd: "", home: "" };
  beforeEach(() => {
    dirs.root = mkdtempSync(join(tmpdir(), prefix));
    dirs.cwd = join(dirs.root, "project");
    dirs.home = join(dirs.root, "home");
    mkdirSync(dirs.cwd);
    mkdirSync(dirs.home);
  });
  afterEach(() => rmSync(dirs.root, { recursive: true, force: true }));
  return dirs;
}

/** Writes `text` at `path` (creating its directory) and returns the path. */
export function writeText(path: string, text: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}
