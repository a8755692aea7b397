/**
 * Tenants' sessions. With a tokens file, each tenant sees only its own sessions and outputs;
 * anything else answers 404 exactly like an unknown id. Agent sessions a tenant starts are
 * recorded in an ownership registry (durable, beside the store); named sessions for outputs
 * stored over HTTP are kept apart by a tenant prefix in the store (`alice~build-42`), which the
 * API never shows.
 */
import { appendFile, mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { StoreCorruptError } from "../core/errors.js";
import type { SessionOwnership } from "../store/stores.js";
import type { Tenant } from "./auth.js";

/**
 * Who owns which agent session: a file in the server's home, or the shared store's table
 * (PostgreSQL: every worker sees every claim).
 */
export type SessionOwners = SessionOwnership;

const lineSchema = z.object({ sessionId: z.string(), tenant: z.string() });

/**
 * The ownership registry as a JSON Lines file, read once and appended to.
 *
 * @example
 * const owners = await FileSessionOwners.open("/var/lib/spillway/server/owners.jsonl");
 * await owners.claim("ses_1", "alice");
 * await owners.ownerOf("ses_1"); // "alice"
 */
export class FileSessionOwners implements SessionOwners {
  private readonly owners = new Map<string, string>();
  private chain: Promise<void> = Promise.resolve();

  private constructor(private readonly path: string) {}

  static async open(path: string): Promise<FileSessionOwners> {
    const registry = new FileSessionOwners(path);
    let text = "";
    try {
      text = await readFile(path, "utf8");
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== "ENOENT") throw cause;
    }
    for (const [index, line] of text.split("\n").entries()) {
      if (line.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (cause) {
        throw new StoreCorruptError(
          `${path} line ${index + 1} is not JSON`,
          { file: path, line: index + 1 },
          cause,
        );
      }
      const parsed = lineSchema.safeParse(value);
      if (!parsed.success)
        throw new StoreCorruptError(`${path} line ${index + 1}: expected {sessionId, tenant}`, {
          file: path,
          line: index + 1,
        });
      registry.owners.set(parsed.data.sessionId, parsed.data.tenant);
    }
    return registry;
  }

  async ownerOf(sessionId: string): Promise<string | undefined> {
    return this.owners.get(sessionId);
  }

  claim(sessionId: string, tenant: string): Promise<void> {
    if (this.owners.get(sessionId) === tenant) return this.chain;
    this.owners.set(sessionId, tenant);
    const line = `${JSON.stringify({ sessionId, tenant })}\n`;
    this.chain = this.chain.then(async () => {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      await appendFile(this.path, line, { mode: 0o600 });
    });
    return this.chain;
  }

  async sessionsOf(tenant: string): Promise<string[]> {
    return [...this.owners]
      .filter(([, owner]) => owner === tenant)
      .map(([id]) => id)
      .reverse();
  }
}

const SEPARATOR = "~";

/**
 * The tenant's view of session ids: maps a name in the API to the id in the store and back,
 * and says whether a stored session is visible.
 *
 * @example
 * const view = new TenantView({ name: "alice", seesAll: false }, owners);
 * await view.storeId("build-42"); // "alice~build-42"
 */
export class TenantView {
  constructor(
    readonly tenant: Tenant,
    private readonly owners: SessionOwners,
  ) {}

  private get prefix(): string {
    return `${this.tenant.name}${SEPARATOR}`;
  }

  /** The store's session id for a session named in the API. */
  async storeId(name: string): Promise<string> {
    if (this.tenant.seesAll) return name;
    if ((await this.owners.ownerOf(name)) === this.tenant.name) return name;
    return `${this.prefix}${name}`;
  }

  /** The API's name for a store session id. */
  publicId(storeId: string): string {
    return !this.tenant.seesAll && storeId.startsWith(this.prefix)
      ? storeId.slice(this.prefix.length)
      : storeId;
  }

  /** True when this tenant may see the stored session. */
  async sees(storeId: string): Promise<boolean> {
    if (this.tenant.seesAll) return true;
    if (storeId.startsWith(this.prefix)) return true;
    return (await this.owners.ownerOf(storeId)) === this.tenant.name;
  }
}
