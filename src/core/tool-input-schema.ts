import { z } from "zod";

/** Bounds zod adds to every integer; they say nothing to a model and cost tokens on every call. */
const SAFE_INTEGER_BOUNDS = new Map([
  ["minimum", Number.MIN_SAFE_INTEGER],
  ["maximum", Number.MAX_SAFE_INTEGER],
]);

function withoutSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (SAFE_INTEGER_BOUNDS.get(key) === inner) continue;
    out[key] = withoutSafeIntegerBounds(inner);
  }
  return out;
}

/**
 * The JSON Schema a model is sent for a tool's arguments, derived from the zod schema that
 * validates them: one source for both (docs/architecture.md, "One schema source").
 *
 * @example
 * toolInputSchema(z.object({ id: z.string().describe("The output id") }).strict());
 * // { type: "object", properties: { id: { type: "string", description: "The output id" } },
 * //   required: ["id"], additionalProperties: false }
 */
export function toolInputSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "throw" }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return withoutSafeIntegerBounds(json) as Record<string, unknown>;
}
