/**
 * What a web page may make a browser send to this server. Any page the user visits can make
 * the browser send requests to `127.0.0.1:7411`; a page of another origin must not read (CORS
 * stays closed unless `--cors`) nor write. Two rules:
 * - a request whose `Origin` is neither this server's own nor a `--cors` origin is refused;
 * - a write (any method but GET, HEAD and OPTIONS) must be one a browser would not send
 *   cross-site without asking first (a CORS preflight, which fails for other origins): a
 *   Content-Type other than the three "simple" ones, or a header of ours (`X-Spillway-Client`)
 *   or `Authorization`. curl, scripts and the inspector send one of them; a form or a
 *   `fetch(…, {mode: "no-cors"})` cannot.
 */
import { HttpProblem } from "./problem.js";

/** The header a client may send to mark a write as its own (any value). */
export const CLIENT_HEADER = "x-spillway-client";

/** Content types a browser sends cross-site without a preflight (the Fetch standard's list). */
const SIMPLE_TYPES = new Set([
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "text/plain",
]);

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** `https://a.example:8443` → `a.example:8443`; undefined for `null` or a malformed origin. */
function hostOf(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url.host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a request whose `Origin` names another site: allowed are the server's own origin
 * (the host the request was sent to) and the `--cors` origins.
 */
export function checkOrigin(
  origin: string | undefined,
  hostHeader: string | undefined,
  corsOrigins: readonly string[],
): void {
  if (origin === undefined) return;
  if (corsOrigins.includes(origin)) return;
  const host = hostOf(origin);
  if (host !== undefined && host.toLowerCase() === (hostHeader ?? "").toLowerCase()) return;
  throw new HttpProblem(
    403,
    "FORBIDDEN",
    `Origin ${JSON.stringify(origin)} may not call this server: it answers web pages only from its own origin${corsOrigins.length > 0 ? ` and ${corsOrigins.join(", ")}` : ""}; allow another with --cors ORIGIN.`,
    { field: "header.origin", origin, allowed: [...corsOrigins] },
  );
}

/**
 * Refuses a write a browser could send cross-site without a preflight: it needs a non-simple
 * Content-Type (e.g. `application/octet-stream`, `application/json`), `X-Spillway-Client`, or
 * `Authorization`.
 */
export function checkWriteHeaders(method: string, headers: (name: string) => string | undefined) {
  if (READS.has(method.toUpperCase())) return;
  if (headers(CLIENT_HEADER) !== undefined || headers("authorization") !== undefined) return;
  const type = headers("content-type");
  const essence = type?.split(";")[0]?.trim().toLowerCase();
  if (essence && !SIMPLE_TYPES.has(essence)) return;
  throw new HttpProblem(
    415,
    "UNSUPPORTED_MEDIA_TYPE",
    `A ${method.toUpperCase()} needs a Content-Type a web page cannot send without asking (e.g. application/octet-stream for an output's bytes, application/json for a JSON body), or the header X-Spillway-Client: 1; this one sent ${type ? JSON.stringify(type) : "none"}. (The rule keeps other web sites from writing to this server.)`,
    {
      field: "header.content-type",
      contentType: type ?? null,
      valid: ["application/octet-stream", "application/json", `${CLIENT_HEADER}: <any>`],
    },
  );
}
