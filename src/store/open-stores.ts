/**
 * One way to open the stores an installation is configured for: SQLite in the home directory
 * (the default), or PostgreSQL when a `postgres://` URL is given (`--store`, SPILLWAY_STORE).
 * The CLI, the server and the gateway all open their stores here.
 */
import { InvalidArgumentError } from "../core/errors.js";
import type { OutputStore } from "./output-store.js";
import { isPostgresUrl, redactConnectionString } from "./postgres-database.js";
import type { SqliteSynchronous } from "./sqlite-database.js";
import type { SpillwayStores } from "./stores.js";

export interface StoreLocation {
  /** The local directory (SQLite's data, or with PostgreSQL only traces and server state). */
  readonly home?: string;
  /** A PostgreSQL URL; undefined for SQLite in `home`. */
  readonly store?: string | undefined;
  /** SQLite only: `full` (default) or `normal` commits. */
  readonly synchronous?: SqliteSynchronous;
  readonly maxOutputBytes?: number;
  readonly maxSessionBytes?: number;
}

/** The `--store` value, checked: a PostgreSQL URL, or undefined (SQLite). */
export function checkStoreUrl(store: string | undefined, argument = "--store"): string | undefined {
  if (store === undefined || store === "" || store === "sqlite") return undefined;
  if (!isPostgresUrl(store))
    throw new InvalidArgumentError(
      argument,
      `got ${JSON.stringify(redactConnectionString(store))}`,
      "a PostgreSQL URL (postgres://user:password@host:5432/database), or nothing for SQLite in --home",
    );
  return store;
}

/**
 * The store a command was given: `--store`, else SPILLWAY_STORE; checked, and naming which of
 * the two was at fault.
 *
 * @example
 * storeUrlOf(flags.store, process.env); // "postgres://…" or undefined (SQLite)
 */
export function storeUrlOf(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  return checkStoreUrl(
    flag ?? env.SPILLWAY_STORE,
    flag !== undefined ? "--store" : "SPILLWAY_STORE",
  );
}

/** A short name of where the data is, for messages: the home directory, or the URL without its password. */
export function describeStore(location: StoreLocation, home: string): string {
  const store = checkStoreUrl(location.store);
  return store ? redactConnectionString(store) : home;
}

/**
 * Opens every store of a location.
 *
 * @example
 * const stores = await openStores({ home: "/srv/spillway", store: process.env.SPILLWAY_STORE });
 */
export async function openStores(location: StoreLocation): Promise<SpillwayStores> {
  const store = checkStoreUrl(location.store);
  if (store) {
    const { openPostgresStores } = await import("./postgres-stores.js");
    return openPostgresStores({ ...postgresOptions(location, store), ...homeOf(location) });
  }
  const { openSqliteStores } = await import("./sqlite-history-store.js");
  return openSqliteStores(sqliteOptions(location));
}

/**
 * Opens only the output store of a location.
 *
 * @example
 * const outputs = await openOutputStore({ store: "postgres://localhost/spillway" });
 */
export async function openOutputStore(location: StoreLocation): Promise<OutputStore> {
  const store = checkStoreUrl(location.store);
  if (store) {
    const { openPostgresOutputStore } = await import("./postgres-output-store.js");
    return openPostgresOutputStore(postgresOptions(location, store));
  }
  const { openSqliteOutputStore } = await import("./sqlite-output-store.js");
  return openSqliteOutputStore(sqliteOptions(location));
}

function homeOf(location: StoreLocation) {
  return location.home !== undefined ? { home: location.home } : {};
}

function limitsOf(location: StoreLocation) {
  return {
    ...(location.maxOutputBytes !== undefined ? { maxOutputBytes: location.maxOutputBytes } : {}),
    ...(location.maxSessionBytes !== undefined
      ? { maxSessionBytes: location.maxSessionBytes }
      : {}),
  };
}

function postgresOptions(location: StoreLocation, connectionString: string) {
  return { connectionString, ...limitsOf(location) };
}

function sqliteOptions(location: StoreLocation) {
  return {
    ...homeOf(location),
    ...(location.synchronous ? { synchronous: location.synchronous } : {}),
    ...limitsOf(location),
  };
}
