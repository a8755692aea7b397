/**
 * Tool argument schemas for node-llama-cpp's function-calling grammar. Its grammar takes a
 * subset of JSON Schema (types, properties, required, enum, const, oneOf, items, string
 * lengths, $defs/$ref); tools from MCP servers use more. This keeps what the grammar can
 * enforce and drops the rest (the tool still validates its own arguments), so a call is
 * always syntactically valid JSON of the right shape.
 */
import type { GbnfJsonSchema } from "node-llama-cpp";

type Json = Record<string, unknown>;

const BASIC_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);

/** Any JSON value: what an unconstrained schema becomes. */
const ANY: GbnfJsonSchema = {
  oneOf: [
    { type: ["string", "number", "boolean", "null"] },
    { type: "object", additionalProperties: true },
    { type: "array" },
  ],
};

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function withDescription(schema: GbnfJsonSchema, source: Json): GbnfJsonSchema {
  return typeof source.description === "string"
    ? ({ ...schema, description: source.description } as GbnfJsonSchema)
    : schema;
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function convertType(type: string, source: Json, depth: number): GbnfJsonSchema | undefined {
  if (type === "object") {
    const properties: Record<string, GbnfJsonSchema> = {};
    if (isObject(source.properties)) {
      for (const [key, value] of Object.entries(source.properties))
        properties[key] = toGbnfSchema(value, depth + 1);
    }
    const required = Array.isArray(source.required)
      ? source.required.filter((key): key is string => typeof key === "string" && key in properties)
      : [];
    const extra = source.additionalProperties;
    return {
      type: "object",
      properties,
      ...(required.length > 0 ? { required } : {}),
      // An object that lists its properties takes those, even when it lists none: a tool whose
      // schema is `properties: {}` takes no arguments. The prompt's tool list is written from
      // this schema, and `{[key: string]: any}` there invites the model to invent an argument
      // the tool never reads. An object with no property list is a free-form argument map.
      additionalProperties: isObject(extra)
        ? toGbnfSchema(extra, depth + 1)
        : extra === true || (!isObject(source.properties) && extra !== false),
    };
  }
  if (type === "array") {
    return {
      type: "array",
      ...(isObject(source.items) ? { items: toGbnfSchema(source.items, depth + 1) } : {}),
      ...(typeof source.minItems === "number" ? { minItems: source.minItems } : {}),
      ...(typeof source.maxItems === "number" ? { maxItems: source.maxItems } : {}),
    };
  }
  if (type === "string") {
    return {
      type: "string",
      ...(typeof source.minLength === "number" ? { minLength: source.minLength } : {}),
      ...(typeof source.maxLength === "number" ? { maxLength: source.maxLength } : {}),
    };
  }
  if (BASIC_TYPES.has(type)) return { type: type as "number" };
  return undefined;
}

/**
 * Converts one JSON Schema (draft 7 or 2020-12, as tools publish them) to the grammar's
 * subset. Unknown or unsupported parts become "any JSON value" rather than a wrong
 * constraint.
 *
 * @example
 * toGbnfSchema({ type: "object", properties: { id: { type: "string", pattern: "^out_" } }, required: ["id"] });
 * // { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false }
 */
export function toGbnfSchema(schema: unknown, depth = 0): GbnfJsonSchema {
  if (!isObject(schema) || depth > 12) return ANY;
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every(isScalar))
    return withDescription({ enum: schema.enum }, schema);
  if (isScalar(schema.const)) return withDescription({ const: schema.const }, schema);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    return withDescription(
      { oneOf: alternatives.map((alternative) => toGbnfSchema(alternative, depth + 1)) },
      schema,
    );
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1)
    return toGbnfSchema(schema.allOf[0], depth + 1);
  const type = schema.type ?? (isObject(schema.properties) ? "object" : undefined);
  if (typeof type === "string") {
    const converted = convertType(type, schema, depth);
    return converted ? withDescription(converted, schema) : ANY;
  }
  if (Array.isArray(type)) {
    const types = type.filter((t): t is string => typeof t === "string");
    if (types.length > 0 && types.every((t) => BASIC_TYPES.has(t)))
      return withDescription({ type: types as ("string" | "null")[] }, schema);
    const converted = types
      .map((t) => convertType(t, schema, depth))
      .filter((s): s is GbnfJsonSchema => s !== undefined);
    if (converted.length > 0) return withDescription({ oneOf: converted }, schema);
  }
  return withDescription(ANY, schema);
}

/**
 * The tools whose argument schema, as the grammar has it, is an object with no properties and
 * no others allowed: they take no arguments.
 *
 * @example
 * toolsTakingNoArguments({ read_log: { params: toGbnfSchema({ type: "object", properties: {} }) } });
 * // Set { "read_log" }
 */
export function toolsTakingNoArguments(
  functions: Readonly<Record<string, { readonly params?: GbnfJsonSchema }>>,
): Set<string> {
  const names = new Set<string>();
  for (const [name, { params }] of Object.entries(functions)) {
    const schema = params as {
      type?: unknown;
      properties?: object;
      additionalProperties?: unknown;
    };
    if (
      schema?.type === "object" &&
      Object.keys(schema.properties ?? {}).length === 0 &&
      schema.additionalProperties === false
    )
      names.add(name);
  }
  return names;
}
