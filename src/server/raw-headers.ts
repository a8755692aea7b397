/**
 * How stored bytes are served so that they stay inert in a browser: whatever a tool (or a
 * client) stored, `/raw` must never run script on the server's origin, where it could read the
 * whole API. Every response forbids sniffing and runs in a sandbox with no sources; types a
 * browser could render as a document with script (HTML, SVG, XML, anything unknown) are also
 * downloads (`Content-Disposition: attachment`), never rendered inline.
 */
import type { OutputRecord } from "../store/output-store.js";

/** Media types a browser shows inline without running anything. SVG is not one: it scripts. */
const INERT_TYPES = new Set([
  "text/plain",
  "application/json",
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/bmp",
]);

const TOKEN = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;

/** Headers every `/raw` response carries, whatever its type. */
export const INERT_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; sandbox",
  "cross-origin-resource-policy": "same-origin",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

/** The type `/raw` sends: text as UTF-8 text; binary as its stored type when well-formed. */
export function servedType(record: Pick<OutputRecord, "kind" | "mediaType">): string {
  if (record.kind !== "binary") return "text/plain; charset=utf-8";
  const essence = (record.mediaType ?? "").split(";")[0]!.trim().toLowerCase();
  return TOKEN.test(essence) ? essence : "application/octet-stream";
}

/**
 * The headers that keep an output's bytes inert: the served type, no sniffing, a sandbox, and
 * `attachment` unless the type is known to be inert.
 *
 * @example
 * rawHeaders({ id: "out_1", kind: "binary", mediaType: "image/svg+xml" });
 * // { "content-type": "image/svg+xml", "content-disposition": 'attachment; filename="out_1"', … }
 */
export function rawHeaders(
  record: Pick<OutputRecord, "id" | "kind" | "mediaType">,
): Record<string, string> {
  const type = servedType(record);
  const inline = INERT_TYPES.has(type.split(";")[0]!);
  return {
    "content-type": type,
    ...INERT_HEADERS,
    ...(inline ? {} : { "content-disposition": `attachment; filename="${record.id}"` }),
  };
}
