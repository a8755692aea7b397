/**
 * The config file's `gateway` section: how `spillway mcp` treats the results it passes on.
 */
import type { z } from "zod";
import { boolean, int, oneOf, strictObject } from "./schema-helpers.js";

/** Client-model extraction through MCP sampling (`sampling/createMessage`). */
export const gatewaySamplingSchema = strictObject({
  enabled: boolean().optional(),
  maxTokens: int(16).optional(),
  contextWindow: int(1024).optional(),
  concurrency: int(1, 64).optional(),
});

/** `gateway:` in the config file (every key optional; CLI flags win). */
export const gatewaySchema = strictObject({
  maxInlineBytes: int(0).optional(),
  maxInlineTokens: int(0).optional(),
  maxReferenceBytes: int(1).optional(),
  maxReadChars: int(1000).optional(),
  namespace: boolean().optional(),
  durability: oneOf(["full", "normal"] as const).optional(),
  sampling: gatewaySamplingSchema.optional(),
});

export type GatewayConfig = z.output<typeof gatewaySchema>;
