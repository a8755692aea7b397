/**
 * A short look inside an output for `outputs show`: first and last lines of text, the outline
 * of JSON, or the size of binary content (retrieval/synopsis.ts), rendered for a terminal.
 */

import { clipText } from "../core/clip-text.js";
import {
  type Synopsis,
  type SynopsisLine,
  synopsisOf as synopsisOfOutput,
} from "../retrieval/synopsis.js";
import type { OutputRecord, OutputStore } from "../store/output-store.js";
import { OWNER_SCOPE } from "./context.js";
import { formatBytes, formatCount } from "./format.js";
import { printable } from "./terminal-text.js";

const EDGE_LINES = 5;

/** The synopsis of an output for `outputs show`; running and failed outputs have none. */
export async function synopsisOf(store: OutputStore, record: OutputRecord): Promise<Synopsis> {
  if (record.status !== "ready") return { type: "none", reason: `output is ${record.status}` };
  const output = await store.open(record.id, OWNER_SCOPE);
  try {
    return await synopsisOfOutput(output, { edgeLines: EDGE_LINES });
  } finally {
    await output.close();
  }
}

/** The synopsis as display lines. */
export function renderSynopsis(synopsis: Synopsis): string[] {
  switch (synopsis.type) {
    case "none":
      return [`(no content: ${synopsis.reason})`];
    case "binary":
      return [
        `binary, ${formatCount(synopsis.byteSize)} bytes (${formatBytes(synopsis.byteSize)})` +
          `${synopsis.mediaType ? `, ${printable(synopsis.mediaType)}` : ""}`,
      ];
    case "outline":
      return [
        "JSON outline:",
        ...synopsis.outline.split("\n").map((line) => `  ${printable(line)}`),
      ];
    case "excerpt":
      return [
        "first characters:",
        `  ${printable(clipText(JSON.stringify(synopsis.head), 400))}`,
        "last characters:",
        `  ${printable(clipText(JSON.stringify(synopsis.tail), 400))}`,
      ];
    case "lines": {
      const width = String(synopsis.totalLines).length;
      const render = ({ line, text }: SynopsisLine) =>
        `  ${String(line).padStart(width)}  ${printable(clipText(text, 200))}`;
      const shown = synopsis.head.length + synopsis.tail.length;
      const title =
        synopsis.tail.length === 0
          ? `all ${formatCount(synopsis.totalLines)} lines:`
          : `first ${synopsis.head.length} and last ${synopsis.tail.length} of ${formatCount(synopsis.totalLines)} lines:`;
      return [
        title,
        ...synopsis.head.map(render),
        ...(synopsis.tail.length > 0
          ? [
              `  ${"…".padStart(width)}  (${formatCount(synopsis.totalLines - shown)} more lines)`,
              ...synopsis.tail.map(render),
            ]
          : []),
      ];
    }
  }
}
