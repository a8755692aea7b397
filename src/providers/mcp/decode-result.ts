/**
 * MCP `CallToolResult` → {@link McpCallResult}: base64 payloads become bytes, names become ours.
 * Text is passed through by reference (no copy), so a 300 MB result stays one string.
 */

import { readFileSync } from "node:fs";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  isTextStream,
  joinText,
  stringifyWithStreams,
  type TextStream,
} from "../../core/text-stream.js";
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

/** An MCP result split the way spillway stores it: one text, and each binary part on its own. */
export interface McpContentParts {
  /**
   * Text parts joined by newlines; absent when the result is only binary. A stream when a part
   * was too large to hold (a `text-stream` part, see `spillTextOverBytes`): read it once.
   */
  readonly text?: string | TextStream;
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
  const texts: (string | TextStream)[] = [];
  const binary: { data: Uint8Array; mediaType: string }[] = [];
  for (const part of result.content) {
    if (part.type === "text" || part.type === "text-stream") texts.push(part.text);
    else if (part.type === "binary") binary.push({ data: part.data, mediaType: part.mediaType });
    else if (part.type === "resource") {
      if (part.text !== undefined) texts.push(part.text);
      if (part.textStream !== undefined) texts.push(part.textStream);
      if (part.data !== undefined)
        binary.push({ data: part.data, mediaType: part.mediaType ?? "application/octet-stream" });
    } else texts.push(`[resource link: ${part.uri}${part.name ? ` (${part.name})` : ""}]`);
  }
  const structured = result.structured;
  if (texts.length === 0 && binary.length === 0 && structured !== undefined) {
    texts.push(
      hasStream(structured)
        ? {
            byteLength: 0,
            chunks: () => stringifyWithStreams(structured, 2),
            release: async () => releaseStreams(structured),
          }
        : JSON.stringify(structured, null, 2),
    );
  } else {
    releaseStreams(structured); // unused here (often the same text as the content)
  }
  return {
    ...(texts.length > 0 || binary.length === 0 ? { text: joined(texts) } : {}),
    ...(binary.length > 0 ? { binary } : {}),
  };
}

/** Releases the text streams under a value (structured content nobody will read). */
function releaseStreams(value: unknown): void {
  if (isTextStream(value)) void value.release();
  else if (Array.isArray(value)) value.forEach(releaseStreams);
  else if (typeof value === "object" && value !== null)
    Object.values(value).forEach(releaseStreams);
}

function hasStream(value: unknown): boolean {
  if (isTextStream(value)) return true;
  if (Array.isArray(value)) return value.some(hasStream);
  return typeof value === "object" && value !== null && Object.values(value).some(hasStream);
}

/** Texts and streams as one text: a string when every part is one, else a stream. */
function joined(parts: (string | TextStream)[]): string | TextStream {
  if (parts.every((part) => typeof part === "string")) return parts.join("\n");
  const streams = parts.filter((part): part is TextStream => typeof part !== "string");
  return {
    byteLength: parts.reduce(
      (sum, part) => sum + (typeof part === "string" ? Buffer.byteLength(part) : part.byteLength),
      parts.length - 1,
    ),
    chunks: () => joinText(parts, "\n"),
    release: async () => {
      await Promise.all(streams.map((stream) => stream.release()));
    },
  };
}
