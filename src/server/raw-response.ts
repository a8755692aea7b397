/**
 * The stored bytes of an output as an HTTP response: streamed in blocks (never whole in
 * memory), one byte range when asked (206), 416 for a range outside the output, always inert in
 * a browser (raw-headers.ts).
 */
import type { OpenedOutput } from "../store/output-store.js";
import { HttpProblem } from "./problem.js";
import { rawHeaders } from "./raw-headers.js";

const BLOCK = 256 * 1024;

/** The byte range a `Range` header asks for, or null for the whole output (absent or multiple ranges). */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) {
    if (/^bytes=[\d\-, ]+$/.test(header.trim())) return null; // several ranges: served whole
    throw new HttpProblem(
      416,
      "INVALID_RANGE",
      `Range ${JSON.stringify(header)} is not bytes=START-END, bytes=START- or bytes=-SUFFIX.`,
      {
        field: "header.range",
        size,
      },
      { "content-range": `bytes */${size}` },
    );
  }
  const [, a, b] = match;
  let start: number;
  let end: number;
  if (a === "" && b === "")
    throw new HttpProblem(
      416,
      "INVALID_RANGE",
      "Range bytes=- names no bytes.",
      { field: "header.range", size },
      { "content-range": `bytes */${size}` },
    );
  if (a === "") {
    start = Math.max(0, size - Number(b));
    end = size - 1;
  } else {
    start = Number(a);
    end = b === "" ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (start >= size || end < start)
    throw new HttpProblem(
      416,
      "INVALID_RANGE",
      `Range ${header} is outside the output (${size} bytes).`,
      { field: "header.range", size },
      {
        "content-range": `bytes */${size}`,
      },
    );
  return { start, end };
}

/**
 * A Response streaming an opened output's bytes (closes it when done).
 *
 * @example
 * return rawResponse(await store.open(id, scope), c.req.header("range"), false);
 */
export function rawResponse(
  opened: OpenedOutput,
  rangeHeader: string | undefined,
  headOnly: boolean,
): Response {
  const { record, source } = opened;
  let range: { start: number; end: number } | null;
  try {
    range = parseRange(rangeHeader, source.size);
  } catch (error) {
    void opened.close();
    throw error;
  }
  const start = range?.start ?? 0;
  const end = range ? range.end + 1 : source.size;
  const headers: Record<string, string> = {
    ...rawHeaders(record),
    "content-length": String(end - start),
    "accept-ranges": "bytes",
    etag: `"${record.sha256}"`,
    "x-spillway-sha256": record.sha256,
    ...(range ? { "content-range": `bytes ${start}-${end - 1}/${source.size}` } : {}),
  };
  if (headOnly) {
    void opened.close();
    return new Response(null, { status: range ? 206 : 200, headers });
  }
  let position = start;
  let closed = false;
  const finish = async () => {
    if (closed) return;
    closed = true;
    await opened.close();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (position >= end) {
        await finish();
        controller.close();
        return;
      }
      const bytes = await source.read(position, Math.min(BLOCK, end - position));
      position += bytes.byteLength;
      controller.enqueue(new Uint8Array(bytes));
      if (bytes.byteLength === 0) {
        await finish();
        controller.close();
      }
    },
    async cancel() {
      await finish();
    },
  });
  return new Response(body, { status: range ? 206 : 200, headers });
}
