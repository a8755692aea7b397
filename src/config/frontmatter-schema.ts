/**
 * The YAML frontmatter of an agent file.
 */
import { z } from "zod";
import { mcpServersSettingSchema } from "./mcp-server-schema.js";
import { strictObject, string } from "./schema-helpers.js";
import { settingsShape } from "./settings-schema.js";

/** Every frontmatter key: the shared settings plus what only an agent file declares. */
export const frontmatterSchema = strictObject({
  description: z.string({ error: "a string" }).optional(),
  ...settingsShape,
  mcpServers: mcpServersSettingSchema.optional(),
  agents: z
    .array(string("a path to an agent file (relative to this file)"), {
      error: "a list of paths to agent files (relative to this file)",
    })
    .optional(),
});

/** Frontmatter as validated, before paths are resolved. */
export type FrontmatterValues = z.output<typeof frontmatterSchema>;

/** The keys an agent file's frontmatter accepts. */
export const FRONTMATTER_KEYS: readonly string[] = Object.keys(frontmatterSchema.shape);
