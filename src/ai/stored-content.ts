import { inspect } from "node:util";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { decodeCallToolResult, mcpContentParts } from "../providers/mcp/decode-result.js";

/**
 * A tool's result as spillway stores it: one text (the output the handle names) and binary
 * parts stored as outputs of their own (attachments).
 */
export interface StoredContent {
  /** Absent when the result is only binary. */
  readonly text?: string;
  readonly binary?: readonly { readonly data: Uint8Array; readonly mediaType: string }[];
  /** The tool said its result is an error (an MCP result with `isError: true`). */
  readonly isError: boolean;
}

/** The MCP `CallToolResult` shape, as `@ai-sdk/mcp` tools and MCP clients return it. */
const mcpResult = z.looseObject({
  content: z.array(
    z.discriminatedUnion("type", [
      z.looseObject({ type: z.literal("text"), text: z.string() }),
      z.looseObject({ type: z.literal("image"), data: z.string(), mimeType: z.string() }),
      z.looseObject({ type: z.literal("audio"), data: z.string(), mimeType: z.string() }),
      z.looseObject({
        type: z.literal("resource"),
        resource: z.looseObject({
          uri: z.string(),
          mimeType: z.string().optional(),
          text: z.string().optional(),
          blob: z.string().optional(),
        }),
      }),
      z.looseObject({ type: z.literal("resource_link"), uri: z.string(), name: z.string() }),
    ]),
  ),
  isError: z.boolean().optional(),
  structuredContent: z.unknown().optional(),
});

function bytesOf(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value))
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return undefined;
}

/**
 * JSON text of a value, indented so that line-oriented reads (grep, slices by line) work on
 * it; BigInts as digits. A value JSON cannot express (a cycle) is stored as Node's full
 * inspection of it, which keeps every field.
 */
function jsonText(value: unknown): string {
  try {
    const text = JSON.stringify(
      value,
      (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v),
      2,
    );
    return text ?? "null";
  } catch {
    // A cycle: JSON cannot express it; the inspection names the repeated reference instead.
    return inspect(value, {
      depth: Number.POSITIVE_INFINITY,
      maxArrayLength: null,
      maxStringLength: null,
    });
  }
}

/**
 * What to store for one `execute` result: a string as is; bytes (`Uint8Array`, `Buffer`,
 * `ArrayBuffer`) as a binary output; an MCP `CallToolResult` as its text with each image,
 * audio or blob part as a binary attachment; anything else as indented JSON.
 *
 * @example
 * storedContentOf("line 1\nline 2"); // { text: "line 1\nline 2", isError: false }
 * storedContentOf({ rows: [1, 2] }).text; // '{\n  "rows": [\n    1,\n    2\n  ]\n}'
 */
export function storedContentOf(value: unknown): StoredContent {
  if (typeof value === "string") return { text: value, isError: false };
  const bytes = bytesOf(value);
  if (bytes)
    return { binary: [{ data: bytes, mediaType: "application/octet-stream" }], isError: false };
  if (value === undefined) return { text: "", isError: false };
  const mcp = mcpResult.safeParse(value);
  if (mcp.success) {
    const decoded = decodeCallToolResult(mcp.data as CallToolResult);
    const parts = mcpContentParts(decoded);
    return {
      ...(parts.text !== undefined ? { text: parts.text } : {}),
      ...(parts.binary ? { binary: parts.binary } : {}),
      isError: decoded.isError,
    };
  }
  return { text: jsonText(value), isError: false };
}
