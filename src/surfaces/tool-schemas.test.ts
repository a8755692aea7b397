/**
 * Every model-facing schema is derived from the zod schema that validates its arguments.
 * The compatibility ones are pinned here to their published JSON, word for word (key order aside).
 */
import { describe, expect, it } from "vitest";
import { loadTokenizer } from "../core/tokens.js";
import { createGetContinuationSurface } from "./get-continuation.js";
import { getToolOutputArgs } from "./get-tool-output/schema.js";
import { createGetToolOutputSurface } from "./get-tool-output.js";
import { createToolOutputSurface } from "./tool-output.js";

const schemaOf = (surface: { tools(): { inputSchema: Record<string, unknown> }[] }) =>
  surface.tools()[0]!.inputSchema;

describe("compatibility tool schemas", () => {
  it("tool_output keeps its compatibility schema, exactly", () => {
    expect(schemaOf(createToolOutputSurface())).toStrictEqual({
      type: "object",
      additionalProperties: false,
      required: ["handle", "extract"],
      properties: {
        handle: {
          type: "string",
          minLength: 1,
          description:
            'UUID handle of the stored tool output (provided in the tool-result message: tool_output(handle = "<uuid>", ...)).',
        },
        extract: {
          type: "string",
          minLength: 1,
          description:
            "Provide precise, detailed instructions about what you need from the tool output (be specific, include keys/fields/sections if known).",
        },
        mode: {
          type: "string",
          enum: ["auto", "full-chunked", "read-grep", "truncate"],
          description:
            "Optional override. auto=module decides; full-chunked=LLM chunk+reduce; read-grep=dynamic sub-agent with Read/Grep; truncate=keeps top and bottom, truncates in the middle.",
        },
      },
    });
  });

  it("get_continuation keeps its compatibility schema, exactly (no additionalProperties: it has none)", () => {
    expect(schemaOf(createGetContinuationSurface({ chars: 4000 }))).toStrictEqual({
      type: "object",
      properties: {
        tool_call_id: {
          type: "string",
          description: "The tool_call_id from the truncation message",
        },
        offset: {
          type: "integer",
          description: "Character offset to read from (default: 4000)",
        },
      },
      required: ["tool_call_id"],
    });
  });
});

describe("get_tool_output's schema", () => {
  const schema = schemaOf(createGetToolOutputSurface({ synopsisLines: 5 })) as {
    properties: Record<string, { type?: string; enum?: string[]; description?: string }>;
    required: string[];
    additionalProperties: boolean;
  };

  it("is the zod schema's JSON Schema: every field the parser accepts is described to the model", () => {
    expect(Object.keys(schema.properties).sort()).toEqual(
      Object.keys(getToolOutputArgs.shape).sort(),
    );
    // A search without an id reads every output of the session; every other mode needs one.
    expect(schema.required).toEqual(["mode"]);
    expect(schema.additionalProperties).toBe(false);
    // Described, but for what its name says (the tool's description names every mode).
    const selfExplaining = new Set(["mode", "regex", "ignore_case"]);
    for (const [name, property] of Object.entries(schema.properties))
      if (!selfExplaining.has(name)) expect(property.description, name).toBeTruthy();
    const description = createGetToolOutputSurface({ synopsisLines: 5 }).tools()[0]!.description;
    for (const mode of schema.properties.mode!.enum!) expect(description).toContain(`${mode} (`);
    // Reads of parts first, raw last (a small model picks the first mode it sees).
    expect(schema.properties.mode!.enum).toEqual([
      "grep",
      "search",
      "slice",
      "page",
      "json",
      "extract",
      "raw",
    ]);
  });

  it("stays small: every request carries it (SW-29)", async () => {
    const tokenizer = await loadTokenizer("o200k_base");
    const definition = createGetToolOutputSurface({ synopsisLines: 5 }).tools()[0]!;
    expect(tokenizer.count(JSON.stringify(definition))).toBeLessThanOrEqual(560);
  });

  it("carries no zod noise (no $schema, no safe-integer bounds)", () => {
    const text = JSON.stringify(schema);
    expect(text).not.toContain("$schema");
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });

  it("what the schema forbids, the parser refuses (one source)", () => {
    expect(getToolOutputArgs.safeParse({ id: "out_x", mode: "grep", nope: 1 }).success).toBe(false);
    expect(getToolOutputArgs.safeParse({ id: "out_x", mode: "nope" }).success).toBe(false);
    expect(getToolOutputArgs.safeParse({ id: "out_x", mode: "grep", context: 1.5 }).success).toBe(
      false,
    );
    expect(getToolOutputArgs.safeParse({ id: "out_x", mode: "grep", pattern: "x" }).success).toBe(
      true,
    );
  });
});
