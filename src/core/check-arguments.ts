import type { z } from "zod";
import { InvalidArgumentError } from "./errors.js";

/**
 * True for a plain mapping (not null, not a list): what a JSON object parses to.
 *
 * @example
 * isPlainObject({ a: 1 }); // true
 * isPlainObject(["a"]); // false
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A short, safe description of any value (BigInts, symbols, functions, cycles included). */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case "undefined":
      return "nothing";
    case "bigint":
      return `the BigInt ${value}n`;
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
    case "number":
      return Number.isFinite(value) ? String(value) : `${value} (not a finite number)`;
    case "string":
      // Cut before quoting: the value may be megabytes long.
      return `${clip(JSON.stringify(value.slice(0, 80)))}${value.length > 80 ? ` (${value.length} characters)` : ""}`;
    default:
      break;
  }
  if (value === null) return "null";
  if (value instanceof Uint8Array) return `${value.byteLength} bytes`;
  if (Array.isArray(value) && value.length > 20) return `an array of ${value.length}`;
  // Small objects in full; long strings inside are cut before quoting (they may be huge).
  const keys = Object.keys(value as object);
  if (keys.length <= 20) {
    try {
      const text = JSON.stringify(value, (_key, item: unknown) =>
        typeof item === "bigint"
          ? `${item}n`
          : typeof item === "string" && item.length > 40
            ? `${item.slice(0, 40)}…`
            : item,
      );
      if (text !== undefined) return clip(text);
    } catch {
      // A cycle: fall back to the keys.
    }
  }
  return keys.length === 0
    ? "an empty object"
    : `an object with ${clip(keys.map((key) => JSON.stringify(key.slice(0, 40))).join(", "))}`;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const segment of path) {
    if (typeof current !== "object" || current === null) return undefined;
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/**
 * Checks a caller's argument against a zod schema and returns the parsed (copied) value.
 * The first problem becomes an INVALID_ARGUMENT error naming the argument's path (e.g.
 * `request.start`), what was given and what is valid: the schema's messages say what is
 * valid ("an integer >= 0").
 *
 * @example
 * const scope = checkArgument(readScopeSchema, input, "scope");
 */
export function checkArgument<S extends z.ZodType>(
  schema: S,
  value: unknown,
  name: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = [name, ...issue.path.map(String)].join(".");
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.map((key) => JSON.stringify(key)).join(", ");
    throw new InvalidArgumentError(
      path,
      `has unknown key${issue.keys.length === 1 ? "" : "s"} ${keys}`,
      issue.message.startsWith("Unrecognized") ? "only the documented keys" : issue.message,
    );
  }
  const given = valueAt(value, issue.path);
  const missing = given === undefined && !hasPath(value, issue.path);
  throw new InvalidArgumentError(
    path,
    missing ? "is missing" : `got ${describeValue(given)}`,
    issue.message.replace(/^Invalid input: expected /, ""),
  );
}

function hasPath(input: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return input !== undefined;
  const parent = valueAt(input, path.slice(0, -1));
  return typeof parent === "object" && parent !== null && Object.hasOwn(parent, path.at(-1)!);
}
