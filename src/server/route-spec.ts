/**
 * One schema source for the HTTP API: each route declares its path parameters, query, body
 * and responses as zod schemas once. Routes validate requests with them, and the OpenAPI 3.1
 * document at `/openapi.json` is generated from the same schemas.
 */
import type { Context } from "hono";
import { z } from "zod";
import { HttpProblem, invalidInput } from "./problem.js";

export type HttpMethod = "get" | "post" | "put" | "delete";

export interface ResponseSpec {
  readonly description: string;
  /** JSON body schema; omit for bodies that are not JSON (see `contentType`). */
  readonly schema?: z.ZodType;
  /** Default `application/json` when `schema` is given. */
  readonly contentType?: string;
}

export interface RouteSpec {
  readonly method: HttpMethod;
  /** Hono-style path, e.g. `/v1/outputs/:id`. */
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  /** A JSON body schema, or a raw body described by its content type (streamed). */
  readonly body?:
    | { readonly json: z.ZodType }
    | { readonly raw: string; readonly description: string };
  readonly headers?: Readonly<Record<string, string>>;
  readonly responses: Readonly<Record<number, ResponseSpec>>;
  /** False for routes anyone may call (health, the document itself, the inspector). */
  readonly auth?: boolean;
}

/** The routes of the API, in the order they were declared. */
export class ApiRegistry {
  readonly routes: RouteSpec[] = [];

  /** Declares a route and returns it (pass it to the parse helpers). */
  add<S extends RouteSpec>(spec: S): S {
    this.routes.push(spec);
    return spec;
  }
}

/** Query strings carry text: these read `true`/`1` and `false`/`0` as booleans. */
export const queryBoolean = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1");

/** A non-negative integer from a query string. */
export const queryInt = (max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(0).max(max);

/** Validates the path parameters of a request against the route's schema. */
export function parseParams<S extends RouteSpec & { params: z.ZodObject }>(
  c: Context,
  spec: S,
): z.output<S["params"]> {
  const result = spec.params.safeParse(c.req.param());
  if (!result.success) throw invalidInput("path", result.error);
  return result.data as z.output<S["params"]>;
}

const STRICT = new WeakMap<z.ZodObject, z.ZodObject>();

/** Validates the query string; unknown keys are refused, naming them. */
export function parseQuery<S extends RouteSpec & { query: z.ZodObject }>(
  c: Context,
  spec: S,
): z.output<S["query"]> {
  let strict = STRICT.get(spec.query);
  if (!strict) {
    strict = spec.query.strict();
    STRICT.set(spec.query, strict);
  }
  const result = strict.safeParse(c.req.query());
  if (!result.success) throw invalidInput("query", result.error);
  return result.data as z.output<S["query"]>;
}

/**
 * Reads and validates a JSON body, at most `limit` bytes (413 beyond); the text is parsed
 * with `JSON.parse` and checked by the route's schema before anything uses it.
 */
export async function parseJsonBody<S extends RouteSpec & { body: { json: z.ZodType } }>(
  c: Context,
  spec: S,
  readLimited: (c: Context) => Promise<string>,
): Promise<z.output<S["body"]["json"]>> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new HttpProblem(
      400,
      "INVALID_ARGUMENT",
      `The body must be JSON: send the header content-type: application/json (got ${type === "" ? "none" : JSON.stringify(type)}).`,
      { field: "header.content-type" },
    );
  }
  const text = await readLimited(c);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpProblem(
      400,
      "INVALID_ARGUMENT",
      `The body is not valid JSON: ${(error as Error).message}`,
      {
        field: "body",
      },
    );
  }
  const result = spec.body.json.safeParse(value);
  if (!result.success) throw invalidInput("body", result.error);
  return result.data as z.output<S["body"]["json"]>;
}
