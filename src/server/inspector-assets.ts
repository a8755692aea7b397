/**
 * The web inspector's built files (Vite output), served at `/`. Paths outside the folder are
 * never served; unknown paths get `index.html` (the inspector routes in the browser).
 */
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
};

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
};

/** Why a requested path names no servable file: the inspector's page is served instead. */
const NOT_A_FILE = new Set(["ENOENT", "ENOTDIR", "EISDIR", "ENAMETOOLONG"]);

/**
 * A responder for the inspector's files, or a page saying how to build them when absent.
 *
 * @example
 * const assets = inspectorAssets(new URL("../inspector", import.meta.url).pathname);
 * await assets("/assets/index-abc.js");
 */
export function inspectorAssets(dir: string): (path: string) => Promise<Response> {
  return async (path) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      decoded = "/"; // a malformed escape: the inspector's page
    }
    // No file name holds a NUL (the file system would refuse it): the inspector's page.
    if (decoded.includes("\0")) decoded = "/";
    const clean = normalize(decoded).replace(/^([/\\])+/, "");
    const file = join(dir, clean === "" ? "index.html" : clean);
    const within = file === dir || file.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);
    const type = TYPES[extname(file)];
    if (within && type && clean !== "") {
      try {
        const body = await readFile(file);
        return new Response(body, {
          headers: {
            "content-type": type,
            "cache-control": clean.startsWith("assets/")
              ? "public, max-age=31536000, immutable"
              : "no-cache",
            ...SECURITY_HEADERS,
          },
        });
      } catch (error) {
        if (!NOT_A_FILE.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
      }
    }
    try {
      const index = await readFile(join(dir, "index.html"));
      return new Response(index, {
        headers: {
          "content-type": TYPES[".html"] as string,
          "cache-control": "no-cache",
          ...SECURITY_HEADERS,
        },
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      return new Response(
        "The web inspector is not built: run `npm run build` (it builds web/inspector into dist/inspector).\nThe API is at /v1 and its description at /openapi.json.\n",
        { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } },
      );
    }
  };
}
