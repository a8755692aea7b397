/**
 * The config file (`spillway.config.json`, `.yaml` or `.yml`).
 */
import { z } from "zod";
import { gatewaySchema } from "./gateway-schema.js";
import { mcpServerMapSchema } from "./mcp-server-schema.js";
import { NAME_PATTERN } from "./model-ref.js";
import { httpUrl, int, number, oneOf, strictObject, stringMap } from "./schema-helpers.js";
import { modelRefKeySchema, settingsSchema } from "./settings-schema.js";

/** BPE encodings a model can be counted with. */
export const TOKENIZER_NAMES = ["o200k_base", "cl100k_base"] as const;

const ENV_NAME_ALLOWED = 'an environment variable name like "OPENAI_API_KEY"';

const apiKeyEnvSchema = z
  .string({ error: ENV_NAME_ALLOWED })
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: ENV_NAME_ALLOWED });

const keyedProviderSchema = strictObject({
  baseURL: httpUrl().optional(),
  apiKeyEnv: apiKeyEnvSchema.optional(),
});

const compatibleEndpointSchema = strictObject({
  baseURL: httpUrl(),
  apiKeyEnv: apiKeyEnvSchema.optional(),
  headers: stringMap("HTTP header names").optional(),
});

const endpointNameSchema = z
  .string()
  .regex(NAME_PATTERN, { error: 'an endpoint name of letters, digits, "_" and "-"' });

/** `providers`: endpoints and the environment variables that hold their keys. */
export const providersSchema = strictObject({
  openai: keyedProviderSchema.optional(),
  anthropic: keyedProviderSchema.optional(),
  ollama: strictObject({ baseURL: httpUrl().optional() }).optional(),
  "openai-compatible": z
    .record(endpointNameSchema, compatibleEndpointSchema, {
      error: "a mapping of endpoint name to { baseURL, apiKeyEnv, headers }",
    })
    .optional(),
});

/** `models`: facts about one model. */
export const modelConfigSchema = strictObject({
  contextWindow: int(1).optional(),
  maxOutputTokens: int(1).optional(),
  tokenizer: oneOf(TOKENIZER_NAMES).optional(),
  pricing: strictObject({ inputPerMTok: number(0), outputPerMTok: number(0) }).optional(),
});

/**
 * `store`: a PostgreSQL store shared by several workers, `postgres://user@host:5432/db`. The
 * password stays out of the file (PGPASSWORD or ~/.pgpass), as API keys do.
 */
export const storeUrlSchema = z
  .string({ error: 'a PostgreSQL URL such as "postgres://spillway@db:5432/spillway"' })
  .superRefine((value, ctx) => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      // reported below
    }
    if (!url || !/^postgres(ql)?:$/i.test(url.protocol))
      ctx.addIssue({
        code: "custom",
        message:
          'a PostgreSQL URL such as "postgres://spillway@db:5432/spillway" (SQLite needs no store entry)',
      });
    else if (url.password)
      ctx.addIssue({
        code: "custom",
        message:
          "holds a password: keep the URL here without it (postgres://user@host/db) and put the password in PGPASSWORD or ~/.pgpass, or pass the whole URL with --store or SPILLWAY_STORE",
        params: { sentence: true, secret: true },
      });
  });

/** The whole config file. */
export const configSchema = strictObject({
  $schema: z.string({ error: "a string" }).optional(),
  providers: providersSchema.default({}),
  models: z
    .record(modelRefKeySchema, modelConfigSchema, {
      error: "a mapping of model ref to { contextWindow, maxOutputTokens, tokenizer, pricing }",
    })
    .default({}),
  mcpServers: mcpServerMapSchema.default({}),
  defaults: settingsSchema.default({}),
  /** `spillway mcp`: the gateway's limits and extraction through the client's model. */
  gateway: gatewaySchema.optional(),
  /** The shared PostgreSQL store (below --store and SPILLWAY_STORE); absent: SQLite in the home. */
  store: storeUrlSchema.optional(),
});

/** A validated config file. */
export type SpillwayConfig = z.output<typeof configSchema>;

export type ProvidersConfig = z.output<typeof providersSchema>;

export type ModelConfig = z.output<typeof modelConfigSchema>;

/** A config file as loaded: where it came from and what it says. */
export interface LoadedConfig {
  /** Absolute path of the file. */
  path: string;
  format: "json" | "yaml";
  config: SpillwayConfig;
}
