import { describe, expect, it } from "vitest";
import { toGbnfSchema } from "./tool-schema.js";

describe("toGbnfSchema", () => {
  it("keeps what the grammar enforces and drops the rest", () => {
    expect(
      toGbnfSchema({
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: {
          id: { type: "string", pattern: "^out_", minLength: 1, description: "handle" },
          mode: { type: "string", enum: ["grep", "slice"] },
          context: { type: "integer", minimum: 0, default: 2 },
          slice: { type: "object", properties: { line_start: { type: "integer" } } },
          tags: { type: "array", items: { type: "string" }, maxItems: 3 },
        },
        required: ["id", "mode", "missing"],
      }),
    ).toEqual({
      type: "object",
      properties: {
        id: { type: "string", minLength: 1, description: "handle" },
        mode: { enum: ["grep", "slice"] },
        context: { type: "integer" },
        slice: {
          type: "object",
          properties: { line_start: { type: "integer" } },
          additionalProperties: false,
        },
        tags: { type: "array", items: { type: "string" }, maxItems: 3 },
      },
      required: ["id", "mode"],
      additionalProperties: false,
    });
  });

  it("turns anyOf and type lists into oneOf, and a free-form object into any object", () => {
    expect(toGbnfSchema({ anyOf: [{ type: "string" }, { type: "null" }] })).toEqual({
      oneOf: [{ type: "string" }, { type: "null" }],
    });
    expect(toGbnfSchema({ type: ["string", "null"] })).toEqual({ type: ["string", "null"] });
    expect(toGbnfSchema({ type: "object" })).toEqual({
      type: "object",
      properties: {},
      additionalProperties: true,
    });
  });

  it("gives a tool that lists no properties no arguments, unless it allows more", () => {
    const noArguments = { type: "object", properties: {} };
    expect(toGbnfSchema(noArguments)).toEqual({
      type: "object",
      properties: {},
      additionalProperties: false,
    });
    expect(toGbnfSchema({ ...noArguments, additionalProperties: true })).toEqual({
      type: "object",
      properties: {},
      additionalProperties: true,
    });
    expect(toGbnfSchema({ ...noArguments, additionalProperties: { type: "string" } })).toEqual({
      type: "object",
      properties: {},
      additionalProperties: { type: "string" },
    });
  });

  it("makes anything it cannot read any JSON value", () => {
    const any = toGbnfSchema({ not: { type: "string" } });
    expect(any).toHaveProperty("oneOf");
    expect(toGbnfSchema(undefined)).toEqual(any);
  });
});
