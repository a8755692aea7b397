/**
 * The OpenAPI 3.1 document, generated from the routes' zod schemas (`z.toJSONSchema`), so the
 * document and the validation can never disagree.
 */
import { z } from "zod";
import type { ApiRegistry, RouteSpec } from "./route-spec.js";
import { errorBodySchema } from "./schemas.js";

type JsonObject = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
  }) as JsonObject;
  return rest;
}

function parameters(spec: RouteSpec): JsonObject[] {
  const out: JsonObject[] = [];
  for (const [where, schema] of [
    ["path", spec.params],
    ["query", spec.query],
  ] as const) {
    if (!schema) continue;
    const object = jsonSchema(schema, "input") as {
      properties?: Record<string, JsonObject>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      const { description, ...rest } = property;
      out.push({
        name,
        in: where,
        required: where === "path" || (object.required ?? []).includes(name),
        ...(typeof description === "string" ? { description } : {}),
        schema: rest,
      });
    }
  }
  for (const [name, description] of Object.entries(spec.headers ?? {}))
    out.push({ name, in: "header", required: false, description, schema: { type: "string" } });
  return out;
}

function operation(spec: RouteSpec): JsonObject {
  const responses: JsonObject = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    const type = response.contentType ?? "application/json";
    responses[status] = {
      description: response.description,
      ...(response.schema
        ? { content: { [type]: { schema: jsonSchema(response.schema, "output") } } }
        : response.contentType
          ? { content: { [type]: {} } }
          : {}),
    };
  }
  if (spec.auth !== false)
    responses["401"] = {
      description: "Missing or unknown bearer token.",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  responses.default = {
    description: "An error: `{ code, message, details }` naming the field at fault.",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  };
  const body = spec.body
    ? "json" in spec.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: jsonSchema(spec.body.json, "input") } },
          },
        }
      : {
          requestBody: {
            required: true,
            description: spec.body.description,
            content: { [spec.body.raw]: { schema: { type: "string", format: "binary" } } },
          },
        }
    : {};
  return {
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    operationId: `${spec.method}${spec.path.replace(/[/:](\w)/g, (_m, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, "")}`,
    parameters: parameters(spec),
    ...body,
    responses,
    ...(spec.auth === false ? { security: [] } : {}),
  };
}

/**
 * The OpenAPI 3.1 document of every declared route.
 *
 * @example
 * const doc = openApiDocument(registry, "0.1.0");
 * doc.paths["/v1/outputs/{id}"].get.summary; // "An output's record"
 */
export function openApiDocument(registry: ApiRegistry, version: string): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const spec of registry.routes) {
    const path = spec.path.replace(/:(\w+)/g, "{$1}");
    paths[path] = { ...(paths[path] ?? {}), [spec.method]: operation(spec) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "spillway HTTP API",
      version,
      description:
        "Lossless tool outputs and agent sessions over HTTP: store outputs whole, read them back exactly (slice, grep, page, JSON query, raw with Range), run agent sessions and follow them over SSE.",
    },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: { Error: jsonSchema(errorBodySchema, "output") },
    },
    paths,
  };
}
