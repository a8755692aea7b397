/**
 * MCP `CallToolResult` → {@link McpCallResult}: base64 payloads become bytes, names become ours.
 * Text is passed through by reference (no copy), so a 300 MB result stays one string.
 */

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpCallResult, McpContent } from "./types.js";

type SdkContent = CallToolResult["content"][number];

/** Decodes one MCP tool result. `structuredContent` is kept as `structured`, not copied. */
export function decodeCallToolResult(result: CallToolResult): McpCallResult {
  return {
    isError: result.isError === true,
    content: result.content.map(decodeContent),
    ...(result.structuredContent === undefined ? {} : { structured: result.structuredContent }),
    raw: result,
  };
}

function decodeContent(block: SdkContent): McpContent {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
    case "audio":
      return {
        type: "binary",
        data: fromBase64(block.data),
        mediaType: block.mimeType,
        kind: block.type,
      };
    case "resource": {
      const { resource } = block;
      const mediaType = resource.mimeType === undefined ? {} : { mediaType: resource.mimeType };
      if ("text" in resource && typeof resource.text === "string") {
        return { type: "resource", uri: resource.uri, text: resource.text, ...mediaType };
      }
      if ("blob" in resource && typeof resource.blob === "string") {
        return {
          type: "resource",
          uri: resource.uri,
          data: fromBase64(resource.blob),
          ...mediaType,
        };
      }
      return { type: "resource", uri: resource.uri, ...mediaType };
    }
    case "resource_link":
      return { type: "resource_link", uri: block.uri, name: block.name };
  }
}

/** Base64 → bytes, as a plain `Uint8Array` view (no copy of the decoded buffer). */
function fromBase64(data: string): Uint8Array {
  const buffer = Buffer.from(data, "base64");
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** An MCP result split the way spillway stores it: one text, and each binary part on its own. */
export interface McpContentParts {
  /** Text parts joined by newlines; absent when the result is only binary. */
  readonly text?: string;
  readonly binary?: readonly { readonly data: Uint8Array; readonly mediaType: string }[];
}

/**
 * Splits a decoded MCP result into the text to store as its output and the binary parts to
 * store as attachments. Resource links become a line of text. A result with only
 * `structuredContent` is stored as that JSON; when both are sent, content wins, so nothing is
 * stored twice.
 *
 * @example
 * mcpContentParts({ isError: false, content: [{ type: "text", text: "ok" }] }); // { text: "ok" }
 */
export function mcpContentParts(result: McpCallResult): McpContentParts {
  const texts: string[] = [];
  const binary: { data: Uint8Array; mediaType: string }[] = [];
  for (const part of result.content) {
    if (part.type === "text") texts.push(part.text);
    else if (part.type === "binary") binary.push({ data: part.data, mediaType: part.mediaType });
    else if (part.type === "resource") {
      if (part.text !== undefined) texts.push(part.text);
      if (part.data !== undefined)
        binary.push({ data: part.data, mediaType: part.mediaType ?? "application/octet-stream" });
    } else texts.push(`[resource link: ${part.uri}${part.name ? ` (${part.name})` : ""}]`);
  }
  if (texts.length === 0 && binary.length === 0 && result.structured !== undefined) {
    texts.push(JSON.stringify(result.structured, null, 2));
  }
  return {
    ...(texts.length > 0 || binary.length === 0 ? { text: texts.join("\n") } : {}),
    ...(binary.length > 0 ? { binary } : {}),
  };
}
