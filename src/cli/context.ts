/**
 * What every command needs: the global options, where output goes, and the store. The CLI is
 * the store's owner, so it reads every session's outputs.
 */
import type { Command } from "commander";
import { CONFIG_FILE_NAMES } from "../config/config-names.js";
import { resolveHome } from "../core/home.js";
import { openOutputStore, openStores, storeUrlOf } from "../store/open-stores.js";
import type { OutputStore, ReadScope } from "../store/output-store.js";
import type { SqliteOutputStoreOptions } from "../store/sqlite-output-store.js";
import type { SpillwayStores } from "../store/stores.js";
import { Output } from "./output.js";

/** The CLI reads as the store owner: every session is visible. */
export const OWNER_SCOPE: ReadScope = { allSessions: true };

export interface GlobalOptions {
  readonly home?: string;
  readonly store?: string;
  readonly json?: boolean;
}

export interface CliContext {
  /** The store directory (from --home, $SPILLWAY_HOME or ~/.spillway). */
  readonly home: string;
  /** True when --home was given explicitly (follow-up commands must repeat it). */
  readonly explicitHome: boolean;
  /** A PostgreSQL URL (--store, else $SPILLWAY_STORE); undefined: SQLite in `home`. */
  readonly store: string | undefined;
  readonly json: boolean;
  readonly out: Output;
}

let sharedOutput: Output | undefined;

/**
 * The `store` of the config file found for this command (the working directory's, else the
 * home's), or undefined. Looks for the file first, so commands without one load no config code.
 *
 * @example
 * await configuredStore(undefined); // "postgres://spillway@db:5432/spillway" from spillway.config.yaml
 */
export async function configuredStore(home: string | undefined): Promise<string | undefined> {
  const { stat } = await import("node:fs/promises");
  const { join } = await import("node:path");
  const folders = [process.cwd(), resolveHome(home)];
  const candidates = folders.flatMap((folder) =>
    CONFIG_FILE_NAMES.map((name) => join(folder, name)),
  );
  const exists = await Promise.all(
    candidates.map((path) =>
      stat(path).then(
        (s) => s.isFile(),
        () => false,
      ),
    ),
  );
  if (!exists.includes(true)) return undefined;
  const { findConfigFile, loadConfigFile } = await import("../config/config-file.js");
  const path = await findConfigFile({ ...(home !== undefined ? { home } : {}) });
  return path ? (await loadConfigFile(path)).config.store : undefined;
}

/** The context of the command being run, from its own and its parents' options. */
export function contextOf(command: Command): CliContext {
  const globals = command.optsWithGlobals<GlobalOptions>();
  sharedOutput ??= new Output();
  return {
    home: resolveHome(globals.home),
    explicitHome: globals.home !== undefined,
    store: storeUrlOf(globals.store),
    json: globals.json === true,
    out: sharedOutput,
  };
}

/** Opens the store, runs `work`, and closes the store whatever happens. */
export async function withStore<T>(
  context: CliContext,
  work: (store: OutputStore) => Promise<T>,
  options: Pick<SqliteOutputStoreOptions, "maxOutputBytes" | "maxSessionBytes"> = {},
): Promise<T> {
  const store = await openOutputStore({ ...options, home: context.home, store: context.store });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Opens every store (outputs, history, extraction cache), runs `work`, and closes them. */
export async function withStores<T>(
  context: CliContext,
  work: (stores: SpillwayStores) => Promise<T>,
  options: Pick<SqliteOutputStoreOptions, "maxSessionBytes"> = {},
): Promise<T> {
  const stores = await openStores({ ...options, home: context.home, store: context.store });
  try {
    return await work(stores);
  } finally {
    await stores.close();
  }
}
