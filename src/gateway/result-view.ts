/**
 * What the client is sent for a tool result that was stored: the result itself, unchanged,
 * when it fits the configured size and token caps; otherwise the handle message (first, as
 * text) and a `resource_link` to each stored part.
 */
import type { McpCallResult } from "../providers/mcp/index.js";
import { handleReferenceUri } from "../retrieval/handle-reference.js";
import type { OutputRecord, OutputStore } from "../store/output-store.js";
import { defaultHandleMessage } from "../surfaces/index.js";
import type { GatewayLimits } from "./gateway-settings.js";
import type { StoredResult } from "./store-result.js";

/** What the first line of an error result says (as in an agent's projection). */
export const TOOL_ERROR_PREFIX = "[the tool reported an error]\n";

/** The `_meta` key under which handle results carry their outputs' facts. */
export const OUTPUT_META_KEY = "io.github.spillway/outputs";

/** Size a client would be sent: the larger of the content and the structuredContent. */
export function shownSize(
  stored: StoredResult,
  result: McpCallResult,
): {
  bytes: number;
  tokens: number;
} {
  let contentBytes = 0;
  let contentTokens = 0;
  for (const part of result.content) {
    if (part.type === "binary") contentBytes += 4 * Math.ceil(part.data.byteLength / 3);
    if (part.type === "resource" && part.data)
      contentBytes += 4 * Math.ceil(part.data.byteLength / 3);
  }
  const textual = stored.primary.kind === "binary" ? null : stored.primary;
  if (textual) {
    contentBytes += textual.byteSize ?? 0;
    contentTokens += textual.tokenEstimate ?? 0;
  }
  const structuredBytes = stored.structured?.byteSize ?? 0;
  const structuredTokens = stored.structured?.tokenEstimate ?? 0;
  return {
    bytes: Math.max(contentBytes, structuredBytes),
    tokens: Math.max(contentTokens, structuredTokens),
  };
}

/** True when the result passes through unchanged. */
export function fitsInline(
  stored: StoredResult,
  result: McpCallResult,
  limits: GatewayLimits,
): boolean {
  const size = shownSize(stored, result);
  return size.bytes <= limits.maxInlineBytes && size.tokens <= limits.maxInlineTokens;
}

function mimeTypeOf(record: OutputRecord): string {
  if (record.mediaType) return record.mediaType;
  if (record.kind === "json") return "application/json";
  if (record.kind === "ndjson") return "application/x-ndjson";
  if (record.kind === "csv") return "text/csv";
  if (record.kind === "html") return "text/html";
  if (record.kind === "xml") return "application/xml";
  if (record.kind === "markdown") return "text/markdown";
  return "text/plain";
}

/** The resource facts of an output: name, title, description, MIME type, size. */
export function outputResource(record: OutputRecord, role?: string): Record<string, unknown> {
  const size =
    record.kind === "binary"
      ? `${(record.byteSize ?? 0).toLocaleString("en-US")} bytes`
      : `${(record.byteSize ?? 0).toLocaleString("en-US")} bytes, ${(record.lineCount ?? 0).toLocaleString("en-US")} lines, ~${(record.tokenEstimate ?? 0).toLocaleString("en-US")} tokens`;
  return {
    uri: handleReferenceUri(record.id),
    name: record.id,
    title: `${record.toolName} output${role ? ` (${role})` : ""}`,
    description: `Stored whole by spillway: ${role ? `${role} of ` : ""}the result of ${record.toolName} ${record.toolArgs.length > 200 ? `${record.toolArgs.slice(0, 200)}…` : record.toolArgs} (${size}, kind ${record.kind}).`,
    mimeType: mimeTypeOf(record),
    ...(record.byteSize !== null ? { size: record.byteSize } : {}),
  };
}

function facts(record: OutputRecord, role: string): Record<string, unknown> {
  return {
    id: record.id,
    role,
    uri: handleReferenceUri(record.id),
    bytes: record.byteSize,
    lines: record.lineCount,
    tokens: record.tokenEstimate,
    kind: record.kind,
    sha256: record.sha256,
  };
}

/**
 * The result the client gets in place of one too large to show: the handle message (what an
 * agent's model is shown), then a resource link to each stored part; `isError` kept.
 */
export async function handleResult(
  stored: StoredResult,
  result: McpCallResult,
  context: {
    readonly outputs: OutputStore;
    readonly sessionId: string;
    readonly synopsisLines: number;
  },
): Promise<Record<string, unknown>> {
  const message = await defaultHandleMessage(
    stored.primary,
    context.outputs,
    { sessionId: context.sessionId },
    context.synopsisLines,
  );
  const parts: [OutputRecord, string][] = [
    [stored.primary, "content"],
    ...stored.binaries.map((record, i): [OutputRecord, string] => [record, `part ${i + 2}`]),
    ...(stored.structured
      ? [[stored.structured, "structuredContent"] as [OutputRecord, string]]
      : []),
  ];
  return {
    content: [
      { type: "text", text: `${result.isError ? TOOL_ERROR_PREFIX : ""}${message}` },
      ...parts.map(([record, role]) => ({
        type: "resource_link",
        ...outputResource(record, role === "content" ? undefined : role),
      })),
    ],
    ...(result.isError ? { isError: true } : {}),
    _meta: { [OUTPUT_META_KEY]: parts.map(([record, role]) => facts(record, role)) },
  };
}
