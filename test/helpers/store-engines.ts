/**
 * The store engines a contract test runs against: SQLite in a temp home, and PostgreSQL in a
 * fresh database of a real server started once per test file (test/helpers/postgres-server.ts).
 *
 * @example
 * describe.each(STORE_ENGINES)("slices on $name", (engine) => {
 *   it("…", async () => { const store = await engine.open(); … });
 * });
 */
import { afterAll } from "vitest";
import type { OutputStore } from "../../src/store/output-store.js";
import {
  openPostgresOutputStore,
  type PostgresOutputStoreOptions,
} from "../../src/store/postgres-output-store.js";
import { openPostgresStores } from "../../src/store/postgres-stores.js";
import { openSqliteStores } from "../../src/store/sqlite-history-store.js";
import type { SqliteOutputStoreOptions } from "../../src/store/sqlite-output-store.js";
import type { SpillwayStores } from "../../src/store/stores.js";
import { type PostgresServer, startPostgres } from "./postgres-server.js";
import { onCleanup, tempDir, tempStore } from "./temp-store.js";

/** Options both engines take. */
export type EngineOptions = Pick<
  SqliteOutputStoreOptions & PostgresOutputStoreOptions,
  "clock" | "ids" | "maxOutputBytes" | "maxSessionBytes" | "tokenizer"
>;

export interface StoreEngine {
  readonly name: "sqlite" | "postgres";
  /** A new, empty store, closed after the test. */
  open(options?: EngineOptions): Promise<OutputStore>;
  /** A second store on the same data (another process, or another worker), closed after the test. */
  reopen(store: OutputStore): Promise<OutputStore>;
  /** Every store (outputs, history, extraction cache) over one new, empty database; and a second set on the same data. */
  openStores(): Promise<{ stores: SpillwayStores; again: () => Promise<SpillwayStores> }>;
}

let server: Promise<PostgresServer> | undefined;
const urls = new WeakMap<OutputStore, string>();
const homes = new WeakMap<OutputStore, string>();

/** The test file's PostgreSQL server, started on first use. */
export function postgresServer(): Promise<PostgresServer> {
  server ??= startPostgres();
  return server;
}

afterAll(async () => {
  if (server) await (await server).stop();
  server = undefined;
});

export const SQLITE_ENGINE: StoreEngine = {
  name: "sqlite",
  async open(options = {}) {
    const { store, home } = await tempStore(options);
    homes.set(store, home);
    return store;
  },
  async reopen(store) {
    const { openSqliteOutputStore } = await import("../../src/store/sqlite-output-store.js");
    const again = await openSqliteOutputStore({ home: homes.get(store)! });
    onCleanup(() => again.close());
    return again;
  },
  async openStores() {
    const home = await tempDir();
    const open = async () => {
      const stores = await openSqliteStores({ home });
      onCleanup(() => stores.close());
      return stores;
    };
    return { stores: await open(), again: open };
  },
};

export const POSTGRES_ENGINE: StoreEngine = {
  name: "postgres",
  async open(options = {}) {
    const connectionString = await (await postgresServer()).createDatabase();
    const store = await openPostgresOutputStore({ ...options, connectionString });
    urls.set(store, connectionString);
    onCleanup(() => store.close());
    return store;
  },
  async reopen(store) {
    const again = await openPostgresOutputStore({ connectionString: urls.get(store)! });
    onCleanup(() => again.close());
    return again;
  },
  async openStores() {
    const connectionString = await (await postgresServer()).createDatabase();
    const home = await tempDir();
    const open = async () => {
      const stores = await openPostgresStores({ connectionString, home });
      onCleanup(() => stores.close());
      return stores;
    };
    return { stores: await open(), again: open };
  },
};

export const STORE_ENGINES: readonly StoreEngine[] = [SQLITE_ENGINE, POSTGRES_ENGINE];
