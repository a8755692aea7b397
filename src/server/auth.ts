/**
 * Who is calling: bearer tokens, each naming a tenant. Tokens are compared in constant time
 * (SHA-256 digests of equal length through `timingSafeEqual`, every entry checked).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { SpillwayError } from "../core/errors.js";
import { HttpProblem } from "./problem.js";

/** The caller's tenant. `seesAll`: the single owner of the store (no tokens file). */
export interface Tenant {
  readonly name: string;
  readonly seesAll: boolean;
}

/** The tenant of a server without a tokens file: the store's owner, who sees everything. */
export const OWNER: Tenant = { name: "owner", seesAll: true };

const MIN_TOKEN_CHARS = 16;

const tenantName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "tenant names: lower-case letters, digits, _ and -");
const tokenSchema = z
  .string()
  .min(MIN_TOKEN_CHARS, `tokens need at least ${MIN_TOKEN_CHARS} characters`);

/** A tokens file: `{ "tenant": "token" }` or `{ "tenant": ["token", "another"] }`. */
export const tokensFileSchema = z
  .record(tenantName, z.union([tokenSchema, z.array(tokenSchema).min(1)]))
  .refine((value) => Object.keys(value).length > 0, "the file names no tenant");

interface Entry {
  readonly digest: Buffer;
  readonly tenant: Tenant;
}

const digest = (token: string) => createHash("sha256").update(token, "utf8").digest();

/**
 * The tokens a server accepts. Empty: no authentication (only allowed on loopback).
 *
 * @example
 * const tokens = TokenTable.single("s3cret-s3cret-s3cret");
 * tokens.tenantOf("Bearer s3cret-s3cret-s3cret"); // { name: "owner", seesAll: true }
 */
export class TokenTable {
  private constructor(private readonly entries: readonly Entry[]) {}

  static none(): TokenTable {
    return new TokenTable([]);
  }

  /** One token, for the store's owner (sees every session). */
  static single(token: string): TokenTable {
    const checked = tokenSchema.safeParse(token);
    if (!checked.success)
      throw new SpillwayError("CONFIG_INVALID", `--token: ${checked.error.issues[0]?.message}`, {
        option: "--token",
      });
    return new TokenTable([{ digest: digest(token), tenant: OWNER }]);
  }

  /** Reads a tokens file: each tenant sees only its own sessions and outputs. */
  static async fromFile(path: string): Promise<TokenTable> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (cause) {
      throw new SpillwayError(
        "CONFIG_INVALID",
        `--tokens-file ${path} could not be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`,
        { option: "--tokens-file", file: path },
        { cause },
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new SpillwayError(
        "CONFIG_INVALID",
        `--tokens-file ${path} is not JSON: write {"tenant": "token", …} (${(cause as Error).message})`,
        { option: "--tokens-file", file: path },
        { cause },
      );
    }
    const parsed = tokensFileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new SpillwayError(
        "CONFIG_INVALID",
        `--tokens-file ${path}: ${issue?.path.join(".") || "(top level)"}: ${issue?.message}; write {"tenant": "token", …}`,
        { option: "--tokens-file", file: path, key: issue?.path.join(".") ?? "" },
      );
    }
    const entries: Entry[] = [];
    const seen = new Set<string>();
    for (const [name, tokens] of Object.entries(parsed.data)) {
      for (const token of typeof tokens === "string" ? [tokens] : tokens) {
        const key = digest(token).toString("hex");
        if (seen.has(key))
          throw new SpillwayError(
            "CONFIG_INVALID",
            `--tokens-file ${path}: a token is given twice (tenant ${name})`,
            {
              option: "--tokens-file",
              key: name,
            },
          );
        seen.add(key);
        entries.push({ digest: digest(token), tenant: { name, seesAll: false } });
      }
    }
    return new TokenTable(entries);
  }

  get required(): boolean {
    return this.entries.length > 0;
  }

  /** How many tenants hold a token. */
  get tenants(): number {
    return new Set(this.entries.map((entry) => entry.tenant.name)).size;
  }

  /**
   * The tenant an `Authorization` header names. Every entry is compared (no early exit) and
   * each comparison is constant-time. Throws 401 when the header is missing or unknown.
   */
  tenantOf(authorization: string | undefined): Tenant {
    if (!this.required) return OWNER;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match?.[1])
      throw new HttpProblem(
        401,
        "UNAUTHORIZED",
        "This server needs a bearer token: send the header Authorization: Bearer <token>.",
        {},
        { "www-authenticate": 'Bearer realm="spillway"' },
      );
    const given = digest(match[1]);
    let found: Tenant | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(given, entry.digest) && !found) found = entry.tenant;
    }
    if (!found)
      throw new HttpProblem(
        401,
        "UNAUTHORIZED",
        "The bearer token is not known to this server.",
        {},
        {
          "www-authenticate": 'Bearer realm="spillway", error="invalid_token"',
        },
      );
    return found;
  }
}
