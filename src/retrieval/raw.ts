import { OutputTooLargeError } from "../core/errors.js";
import type { OpenedOutput } from "../store/output-store.js";
import { DEFAULT_MAX_READ_CHARS, intArg, modesFor, textReaderOf } from "./common.js";
import {
  type BinaryProvenance,
  binaryProvenanceOf,
  type Provenance,
  provenanceOf,
} from "./provenance.js";
import { checkRequest, rawRequestSchema } from "./request-schemas.js";

export interface RawRequest {
  /** Largest content returned, in characters (base64 characters for binary). */
  readonly maxChars?: number;
}

export type RawResult =
  | {
      readonly mode: "raw";
      readonly encoding: "utf-8";
      readonly text: string;
      readonly provenance: Provenance;
    }
  | {
      readonly mode: "raw";
      readonly encoding: "base64";
      readonly text: string;
      readonly provenance: BinaryProvenance;
    };

/**
 * The whole output, when it fits `maxChars`; otherwise OUTPUT_TOO_LARGE with the output's
 * size figures and the modes that read it piece by piece.
 *
 * @example
 * const { text, provenance } = await readRaw(opened, { maxChars: 100_000 });
 */
export async function readRaw(
  output: OpenedOutput,
  unchecked: RawRequest = {},
): Promise<RawResult> {
  const request = checkRequest(rawRequestSchema, unchecked);
  const maxChars = intArg("maxChars", request.maxChars, DEFAULT_MAX_READ_CHARS, 0);
  const { record } = output;
  if (record.kind === "binary") {
    const base64Chars = 4 * Math.ceil(output.source.size / 3);
    if (base64Chars > maxChars) throw tooLarge(output, maxChars);
    const bytes = await output.source.read(0, output.source.size);
    return {
      mode: "raw",
      encoding: "base64",
      text: Buffer.from(bytes).toString("base64"),
      provenance: binaryProvenanceOf(output, 0, output.source.size),
    };
  }
  if ((record.charCount ?? 0) > maxChars) throw tooLarge(output, maxChars);
  const range = await textReaderOf(output, "raw").readChars(0, record.charCount ?? 0);
  return {
    mode: "raw",
    encoding: "utf-8",
    text: range.text,
    provenance: provenanceOf(output, range),
  };
}

function tooLarge(output: OpenedOutput, maxChars: number): OutputTooLargeError {
  const { record } = output;
  const modes = modesFor(output);
  const size =
    record.kind === "binary"
      ? `${record.byteSize} bytes of binary (${4 * Math.ceil((record.byteSize ?? 0) / 3)} base64 characters)`
      : `${record.charCount} characters, ${record.byteSize} bytes, ${record.lineCount} lines, ~${record.tokenEstimate} tokens`;
  return new OutputTooLargeError(
    `Output "${record.id}" of tool ${record.toolName} is too large for a raw read (${size}; ` +
      `limit ${maxChars} characters). Read it with ${modes.join(", ")} instead.`,
    {
      outputId: record.id,
      ...(record.byteSize !== null ? { byteSize: record.byteSize } : {}),
      ...(record.charCount !== null ? { charCount: record.charCount } : {}),
      ...(record.lineCount !== null ? { lineCount: record.lineCount } : {}),
      ...(record.tokenEstimate !== null ? { tokenEstimate: record.tokenEstimate } : {}),
      limit: maxChars,
      limitUnit: "chars",
      modes,
    },
  );
}
