/**
 * The store's library boundary, checked with zod: every store implementation runs a caller's
 * arguments through these before touching its database, so a wrong type is an
 * INVALID_ARGUMENT naming the argument, never a driver error, and a malformed read scope
 * reads nothing.
 */
import { z } from "zod";
import { checkArgument } from "../core/check-arguments.js";
import { InvalidArgumentError } from "../core/errors.js";
import type { OutputContent } from "./ingest.js";
import type {
  ListOutputsFilter,
  OutputOrigin,
  PutOutputOptions,
  ReadScope,
} from "./output-store.js";

const text = (valid: string) => z.string({ error: valid }).min(1, { error: valid });
const SESSION_ID = "a non-empty session id string";
const count = (min: number, valid: string) =>
  z.int({ error: valid }).min(min, { error: valid }).max(Number.MAX_SAFE_INTEGER, { error: valid });

const VALID_SCOPE = '{ sessionId: "<session id>" } or { allSessions: true }';

/** A read scope: one session, or (for the store's owner) every session. */
export const readScopeSchema = z.union(
  [
    z.strictObject({ sessionId: text(SESSION_ID) }),
    z.strictObject({ allSessions: z.literal(true) }),
  ],
  { error: VALID_SCOPE },
);

/** The origin of a tool result about to be stored. */
export const outputOriginSchema = z.strictObject(
  {
    sessionId: text(SESSION_ID),
    toolName: text("the tool's name, a non-empty string"),
    toolArgs: z.string({ error: "the tool's arguments as verbatim JSON text (a string)" }),
    toolCallId: z.string({ error: "the tool call's id, a string" }).optional(),
    createdAt: count(0, "milliseconds since the epoch, an integer >= 0").optional(),
  },
  { error: "an object with sessionId, toolName and toolArgs" },
);

export const putOptionsSchema = z.strictObject(
  {
    binary: z.boolean({ error: "true or false" }).optional(),
    mediaType: z.string({ error: 'a media type string, e.g. "image/png"' }).optional(),
  },
  { error: "an object with optional binary and mediaType" },
);

export const listFilterSchema = z.strictObject(
  {
    sessionId: text(SESSION_ID).optional(),
    status: z
      .enum(["running", "ready", "failed"], { error: "running, ready or failed" })
      .optional(),
    limit: count(1, "an integer >= 1").optional(),
    offset: count(0, "an integer >= 0").optional(),
  },
  { error: "an object with optional sessionId, status, limit and offset" },
);

const idSchema = text('an output id string ("out_…")');

/** Checks a read scope; a malformed one is an error, so it can never widen a read. */
export function checkReadScope(scope: unknown): ReadScope {
  return checkArgument(readScopeSchema, scope, "scope") as ReadScope;
}

export function checkOrigin(origin: unknown): OutputOrigin {
  return checkArgument(outputOriginSchema, origin, "origin") as OutputOrigin;
}

export function checkPutOptions(options: unknown): PutOutputOptions {
  return checkArgument(
    putOptionsSchema,
    options === undefined ? {} : options,
    "options",
  ) as PutOutputOptions;
}

export function checkListFilter(filter: unknown): ListOutputsFilter {
  return checkArgument(
    listFilterSchema,
    filter === undefined ? {} : filter,
    "filter",
  ) as ListOutputsFilter;
}

export function checkOutputId(id: unknown, name = "id"): string {
  return checkArgument(idSchema, id, name);
}

/** Content is a string, bytes, or an async iterable of either. */
export function checkContent(content: unknown): OutputContent {
  if (typeof content === "string" || content instanceof Uint8Array) return content;
  if (
    typeof content === "object" &&
    content !== null &&
    typeof (content as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function"
  ) {
    return content as OutputContent;
  }
  throw new InvalidArgumentError(
    "content",
    `got ${content === null ? "null" : typeof content}`,
    "a string, a Uint8Array, or an async iterable of strings or Uint8Arrays",
  );
}
