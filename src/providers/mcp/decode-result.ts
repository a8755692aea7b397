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
