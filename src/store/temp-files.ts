/**
 * Temp files of payloads being written (`<home>/tmp/<pid>-<random>.part`): named after the
 * writing process, so a stale one (its writer is gone) can be told from a live one, and
 * registered while open, so they are removed when the process exits or is interrupted.
 */
import { rmSync } from "node:fs";
import { basename } from "node:path";

/** A temp file older than this cannot belong to a live write, whoever wrote it. */
export const ABANDONED_TEMP_AGE_MS = 24 * 3600 * 1000;

const live = new Set<string>();
let exitHook = false;

/** The file name of a new temp file of this process. */
export function tempName(random: string): string {
  return `${process.pid}-${random}.part`;
}

/** Remembers a temp file being written, to remove it if the process ends first. */
export function trackTemp(path: string): void {
  live.add(path);
  if (exitHook) return;
  exitHook = true;
  process.once("exit", removeLiveTempsSync);
}

/** Forgets a temp file that was committed (renamed) or discarded. */
export function untrackTemp(path: string): void {
  live.delete(path);
}

/**
 * Removes this process's temp files at once (synchronously, so it works in "exit" and signal
 * handlers). Writes still under way then fail; nothing partial stays behind.
 *
 * @example
 * process.once("SIGTERM", () => { removeLiveTempsSync(); process.exit(143); });
 */
export function removeLiveTempsSync(): void {
  for (const path of live) rmSync(path, { force: true });
  live.clear();
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether a temp file can be removed: its writing process is gone and it has not been
 * written to for `idleMs`, or it is older than a day whoever wrote it. Files of this process
 * are stale only when no write of it holds them.
 */
export function isStaleTemp(path: string, mtimeMs: number, now: number, idleMs: number): boolean {
  if (now - mtimeMs > ABANDONED_TEMP_AGE_MS) return true;
  const pid = Number(/^(\d+)-/.exec(basename(path))?.[1]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return false; // an older name: only the age rule
  if (pid === process.pid) return !live.has(path);
  return !processAlive(pid) && now - mtimeMs >= idleMs;
}
