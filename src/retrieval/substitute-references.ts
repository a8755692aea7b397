import { isSpillwayError, SpillwayError } from "../core/errors.js";
import type { OutputStore, ReadScope } from "../store/output-store.js";
import {
  parseHandleReference,
  type ResolvedReference,
  type ResolveReferenceOptions,
  resolveHandleReference,
} from "./handle-reference.js";

/** One substitution made in a tool's arguments: where, and what it was replaced with. */
export type Substitution = Omit<ResolvedReference, "text"> & {
  /** Where in the arguments, as a JSON path (`$.content`, `$.files[2].text`). */
  readonly path: string;
};

/** The arguments with every handle reference replaced, and what was replaced. */
export interface SubstitutedArguments<T> {
  readonly value: T;
  readonly substitutions: readonly Substitution[];
  /** Bytes substituted in all. */
  readonly bytes: number;
}

function pathOf(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/**
 * Replaces every string value (at any depth) that is exactly a handle reference
 * (`spillway://outputs/<id>`, optionally with a range) by the exact stored content it names;
 * strings that only contain one are left alone. All references of one call share the
 * `maxBytes` budget: past it the whole call is refused with OUTPUT_TOO_LARGE naming the
 * limit, so a tool never receives a cut copy. A reference that cannot be resolved (unknown
 * id, malformed, not ready) throws with the argument's path in the message.
 *
 * @example
 * const { value } = await substituteHandleReferences(
 *   { path: "copy.log", content: "spillway://outputs/out_5k2v9w1q" },
 *   store, { sessionId: "ses_1" }, { maxBytes: 8 << 20 },
 * );
 * value.content; // the stored output, byte for byte
 */
export async function substituteHandleReferences<T>(
  args: T,
  store: OutputStore,
  scope: ReadScope,
  options: ResolveReferenceOptions,
): Promise<SubstitutedArguments<T>> {
  const substitutions: Substitution[] = [];
  let bytes = 0;
  const visit = async (value: unknown, path: string): Promise<unknown> => {
    if (typeof value === "string") {
      const reference = parseAt(value, path);
      if (!reference) return value;
      const resolved = await resolveAt(
        () =>
          resolveHandleReference(store, reference, scope, {
            ...options,
            maxBytes: options.maxBytes - bytes,
          }),
        path,
        options,
        bytes,
      );
      bytes += resolved.byteEnd - resolved.byteStart;
      const { text, ...facts } = resolved;
      substitutions.push({ ...facts, path });
      return text;
    }
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const [index, item] of value.entries()) out.push(await visit(item, pathOf(path, index)));
      return out;
    }
    if (typeof value === "object" && value !== null) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value))
        out[key] = await visit(item, pathOf(path, key));
      return out;
    }
    return value;
  };
  const value = (await visit(args, "$")) as T;
  return { value: substitutions.length === 0 ? args : value, substitutions, bytes };
}

function parseAt(value: string, path: string) {
  try {
    return parseHandleReference(value);
  } catch (error) {
    throw withPath(error, path);
  }
}

async function resolveAt(
  resolve: () => Promise<ResolvedReference>,
  path: string,
  options: ResolveReferenceOptions,
  usedBytes: number,
): Promise<ResolvedReference> {
  try {
    return await resolve();
  } catch (error) {
    if (isSpillwayError(error, "OUTPUT_TOO_LARGE") && usedBytes > 0) {
      const limitName = options.limitName ?? "maxBytes";
      throw new SpillwayError(
        "OUTPUT_TOO_LARGE",
        `Argument ${path}: together with the ${usedBytes.toLocaleString("en-US")} bytes of earlier handle references ` +
          `in this call, it passes the limit of ${options.maxBytes.toLocaleString("en-US")} bytes (${limitName}); the call was not made.`,
        { ...error.details, limit: options.maxBytes, usedBytes, argument: path },
        { fault: error.fault, cause: error },
      );
    }
    throw withPath(error, path);
  }
}

/** The same typed error, with the argument's path in front of its message. */
function withPath(error: unknown, path: string): unknown {
  if (!isSpillwayError(error)) return error;
  return new SpillwayError(
    error.code,
    `Argument ${path}: ${error.message}`,
    { ...error.details, argument: path },
    {
      fault: error.fault,
      cause: error,
    },
  );
}
