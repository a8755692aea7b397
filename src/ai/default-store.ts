import { resolveHome } from "../core/home.js";
import { openSqliteStores, type SpillwayStores } from "../store/sqlite-history-store.js";

/** The SQLite stores opened by the adapter, one per directory and process. */
const opened = new Map<string, Promise<SpillwayStores>>();

/**
 * The SQLite stores in `home` (default `$SPILLWAY_HOME` or `~/.spillway`), opened once per
 * process: every spillwayTools call of a server shares them.
 */
export function defaultStores(home?: string): Promise<SpillwayStores> {
  const dir = resolveHome(home);
  let stores = opened.get(dir);
  if (!stores) {
    stores = openSqliteStores({ home: dir });
    // A store that failed to open is tried again by the next call.
    stores.catch(() => opened.delete(dir));
    opened.set(dir, stores);
  }
  return stores;
}

/**
 * Closes the SQLite stores the adapter opened (for a graceful shutdown or a test's end);
 * a later call opens them again.
 *
 * @example
 * process.on("SIGTERM", () => closeSpillwayStores().then(() => process.exit(0)));
 */
export async function closeSpillwayStores(): Promise<void> {
  const all = [...opened.values()];
  opened.clear();
  for (const stores of await Promise.allSettled(all))
    if (stores.status === "fulfilled") await stores.value.close();
}
