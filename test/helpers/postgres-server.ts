/**
 * A real PostgreSQL server for tests: a throwaway cluster (initdb) in a temp directory, on a
 * free local port, stopped and removed afterwards. Uses the server binaries of Debian's
 * `postgresql` package (`.ci/run` installs it) or SPILLWAY_PG_BIN. PostgreSQL refuses to run
 * as root, so as root the cluster belongs to the `postgres` user and runs as that user.
 */
import { execFile } from "node:child_process";
import { chmod, chown, mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

function serverBinaries(): Promise<string> {
  if (process.env.SPILLWAY_PG_BIN) return Promise.resolve(process.env.SPILLWAY_PG_BIN);
  return readdir("/usr/lib/postgresql")
    .then((versions) => {
      const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
      if (!newest) throw new Error("empty");
      return join("/usr/lib/postgresql", newest, "bin");
    })
    .catch(() => {
      throw new Error(
        "PostgreSQL server binaries not found in /usr/lib/postgresql/*/bin: install them " +
          "(apt-get install postgresql; .ci/run does) or set SPILLWAY_PG_BIN to the directory holding initdb and pg_ctl.",
      );
    });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

async function postgresUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const { stdout } = await run("id", ["-u", "postgres"]);
  const { stdout: group } = await run("id", ["-g", "postgres"]);
  return { uid: Number(stdout.trim()), gid: Number(group.trim()) };
}

/** A running test server. */
export interface PostgresServer {
  /** A URL for the server's `postgres` database. */
  readonly url: string;
  /** Creates an empty database and returns its URL. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

let databases = 0;

/**
 * Starts a throwaway PostgreSQL server (about 2 s).
 *
 * @example
 * const server = await startPostgres();
 * const store = await openPostgresOutputStore({ connectionString: await server.createDatabase() });
 */
export async function startPostgres(
  /** fsync on, as a production server runs (benchmarks); tests run without it. */
  options: { durable?: boolean } = {},
): Promise<PostgresServer> {
  const bin = await serverBinaries();
  const dir = await mkdtemp(join(tmpdir(), "spillway-pg-"));
  const data = join(dir, "data");
  const owner = await postgresUser();
  if (owner) {
    await chown(dir, owner.uid, owner.gid);
    await chmod(dir, 0o700);
  }
  const as = async (command: string, args: string[]) => {
    const path = join(bin, command);
    return owner ? run("runuser", ["-u", "postgres", "--", path, ...args]) : run(path, args);
  };
  const port = await freePort();
  await as("initdb", ["-D", data, "-U", "spillway", "-A", "trust", "-E", "UTF8", "--no-sync"]);
  await as("pg_ctl", [
    "-D",
    data,
    "-l",
    join(dir, "server.log"),
    "-w",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=${options.durable ? "on" : "off"} -c max_connections=200`,
    "start",
  ]);
  const url = `postgres://spillway@127.0.0.1:${port}/postgres`;
  return {
    url,
    async createDatabase() {
      const name = `t${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://spillway@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      await as("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
