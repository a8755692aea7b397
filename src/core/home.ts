import { homedir } from "node:os";
import { join, resolve } from "node:path";

/**
 * The spillway home directory: `$SPILLWAY_HOME`, else `~/.spillway`. The store's database,
 * blobs and pulled models (`models/`) live here unless a caller names another directory.
 *
 * @example
 * resolveHome() // "/home/me/.spillway"
 * resolveHome("./data") // "/work/project/data"
 */
export function resolveHome(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit) return resolve(explicit);
  const fromEnv = env.SPILLWAY_HOME;
  if (fromEnv) return resolve(fromEnv);
  return join(homedir(), ".spillway");
}
