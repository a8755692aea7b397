/**
 * Small zod builders whose error messages say what is allowed ("an integer from 1 to 1000"),
 * so a validation problem can be reported as "<key>: got <value>; expected <allowed>".
 * Issues whose message is already a whole sentence carry `params.sentence`.
 */
import { z } from "zod";
import { didYouMean } from "./suggest.js";

/** Extra data on custom issues raised by config schemas. */
export interface IssueParams {
  /** The message is a complete sentence rather than a description of what is allowed. */
  sentence?: boolean;
  /** `unknown_provider` marks a model ref whose provider does not exist. */
  kind?: "unknown_provider";
  provider?: string;
  /** The value holds a secret: the problem never repeats it. */
  secret?: boolean;
}

type AddIssue = z.core.$RefinementCtx["addIssue"];

/** Reports a custom issue on the value being checked. */
export function addIssue(
  ctx: { addIssue: AddIssue },
  message: string,
  params: IssueParams = {},
  path: PropertyKey[] = [],
): void {
  ctx.addIssue({ code: "custom", message, params: { ...params }, path });
}

/** An integer in `[min, max]` (or `>= min`). */
export function int(min: number, max?: number) {
  const allowed = max === undefined ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
  const schema = z.int({ error: allowed }).min(min, { error: allowed });
  return max === undefined ? schema : schema.max(max, { error: allowed });
}

/** A finite number greater than `min` (exclusive) or at least `min` (inclusive). */
export function number(min: number, options: { exclusive?: boolean; max?: number } = {}) {
  const lower = options.exclusive ? `> ${min}` : `>= ${min}`;
  const allowed =
    options.max === undefined ? `a number ${lower}` : `a number ${lower} and <= ${options.max}`;
  const schema = z
    .number({ error: allowed })
    .refine((value) => (options.exclusive ? value > min : value >= min), { error: allowed });
  const max = options.max;
  return max === undefined ? schema : schema.refine((value) => value <= max, { error: allowed });
}

/** `true` or `false`. */
export function boolean() {
  return z.boolean({ error: "true or false" });
}

/** A string, non-empty by default. */
export function string(allowed = "a non-empty string") {
  return z.string({ error: allowed }).min(1, { error: allowed });
}

/** One of the given strings. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `one of ${quotedList(values)}` });
}

/** A mapping of string names to string values (environment variables, HTTP headers). */
export function stringMap(what: string) {
  return z.record(z.string(), z.string({ error: "a string" }), {
    error: `a mapping of ${what} to strings`,
  });
}

/**
 * A mapping with exactly the given keys (all as declared); an unknown key is reported with
 * the valid keys and a "did you mean" suggestion.
 */
export function strictObject<T extends z.core.$ZodLooseShape>(shape: T, what = "a mapping") {
  const keys = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === "unrecognized_keys") return unknownKeysMessage(issue.keys, keys);
      return `${what} with the keys ${keys.join(", ")}`;
    },
  });
}

/** "unknown key "x" (did you mean "y"?); valid keys: a, b, c". */
export function unknownKeysMessage(unknown: readonly string[], valid: readonly string[]): string {
  const parts = unknown.map((key) => {
    const suggestion = didYouMean(key, valid);
    return suggestion === undefined
      ? JSON.stringify(key)
      : `${JSON.stringify(key)} (did you mean "${suggestion}"?)`;
  });
  const noun = unknown.length === 1 ? "unknown key" : "unknown keys";
  return `${noun} ${parts.join(", ")}; valid keys: ${valid.join(", ")}`;
}

/**
 * A value of one of two forms chosen by its type (e.g. an integer or a map). Unlike
 * `z.union`, a problem inside the chosen form is reported as itself, not as "no form fits".
 */
export function either<A extends z.ZodType, B extends z.ZodType>(
  pick: (value: unknown) => "a" | "b" | undefined,
  a: A,
  b: B,
  allowed: string,
) {
  return z.unknown().transform((value, ctx): z.output<A> | z.output<B> => {
    const form = pick(value);
    if (form === undefined) {
      ctx.addIssue({ code: "custom", message: allowed });
      return z.NEVER;
    }
    const result = form === "a" ? a.safeParse(value) : b.safeParse(value);
    if (!result.success) {
      for (const issue of result.error.issues)
        ctx.addIssue({ ...issue } as Parameters<AddIssue>[0]);
      return z.NEVER;
    }
    return result.data as z.output<A> | z.output<B>;
  });
}

export { isPlainObject } from "../core/check-arguments.js";

/** `"a", "b" or "c"`. */
export function quotedList(values: readonly string[]): string {
  const quoted = values.map((value) => JSON.stringify(value));
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}

/** An `http:` or `https:` URL. */
export function httpUrl() {
  const allowed = 'an http(s) URL like "http://localhost:8000/v1"';
  return z.string({ error: allowed }).refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === "http:" || url.protocol === "https:";
      } catch {
        return false;
      }
    },
    { error: allowed },
  );
}
