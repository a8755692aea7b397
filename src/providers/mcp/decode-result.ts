/**
 * MCP `CallToolResult` → {@link McpCallResult}: base64 payloads become bytes, names become ours.
 * Text is passed through by reference (no copy), so a 300 MB result stays one string.
 */

import { readFileSync } from "node:fs";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isSpillToken, type SpilledText, takeSpilled } from "./spilled-text.js";
import type { McpCallResult, McpContent } from "./types.js";

type SdkContent = CallToolResult["content"][number];

/** Decodes one MCP tool result. `structuredContent` is kept as `structured`, not copied. */
export function decodeCallToolResult(result: CallToolResult): McpCallResult {
  return {
    isError: result.isError === true,
    content: result.content.map(decodeContent),
    ...(result.structuredContent === undefined
      ? {}
      : { structured: withStreams(result.structuredContent) }),
    raw: result,
  };
}

/** A spilled string's text stream (the transport parsed it into a file), or undefined. */
function spilled(value: string): SpilledText | undefined {
  return isSpillToken(value) ? takeSpilled(value) : undefined;
}

/** A spilled base64 payload, read back (binary content is decoded whole). */
function base64Of(value: string): string {
  const file = spilled(value);
  if (!file) return value;
  const text = readFileSync(file.path, "latin1");
  void file.release();
  return text;
}

/** Replaces spill tokens in structured content by their text streams (in place, no copy). */
function withStreams(value: unknown): unknown {
  if (typeof value === "string") return spilled(value) ?? value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = withStreams(value[i]);
  } else if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (typeof item === "object" || isSpillToken(item)) record[key] = withStreams(item);
    }
  }
  return value;
}

function decodeContent(block: SdkContent): McpContent {
  switch (block.type) {
    case "text": {
      const stream = spilled(block.text);
      return stream ? { type: "text-stream", text: stream } : { type: "text", text: block.text };
    }
    case "image":
    case "audio":
      return {
        type: "binary",
        data: fromBase64(base64Of(block.data)),
        mediaType: block.mimeType,
        kind: block.type,
      };
    case "resource": {
      const { resource } = block;
      const mediaType = resource.mimeType === undefined ? {} : { mediaType: resource.mimeType };
      if ("text" in resource && typeof resource.text === "string") {
        const stream = spilled(resource.text);
        return stream
          ? { type: "resource", uri: resource.uri, textStream: stream, ...mediaType }
          : { type: "resource", uri: resource.uri, text: resource.text, ...mediaType };
      }
      if ("blob" in resource && typeof resource.blob === "string") {
        return {
          type: "resource",
          uri: resource.uri,
          data: fromBase64(base64Of(resource.blob)),
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
