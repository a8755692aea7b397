/**
 * `outputs put [file]`: stores a file or stdin as a tool output, streamed in blocks (a
 * 500 MB file is never held in memory), and prints the new id.
 */
import { type FileHandle, open } from "node:fs/promises";
import type { Readable } from "node:stream";
import type { OutputRecord } from "../store/output-store.js";
import { type CliContext, withStore } from "./context.js";
import { CliFailure, EXIT_OK, UsageError } from "./errors.js";
import { formatBytes, formatCount } from "./format.js";

export const DEFAULT_PUT_SESSION = "cli";
export const DEFAULT_PUT_TOOL = "cli__put";

export interface PutOptions {
  readonly session: string;
  readonly tool: string;
  readonly args: string;
  readonly toolCallId?: string;
  readonly binary?: boolean;
  readonly mediaType?: string;
  readonly maxOutputBytes?: number;
}

const READ_BLOCK_BYTES = 1024 * 1024;

/** The content stream: the file's bytes, or stdin's. */
async function contentOf(file: string | undefined): Promise<Readable> {
  if (file === undefined || file === "-") {
    if (process.stdin.isTTY) {
      throw new UsageError(
        "no file given and stdin is a terminal: pass a file, or pipe the content in (e.g. `cmd | spillway outputs put`)",
      );
    }
    return process.stdin;
  }
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, "r");
    if (!(await handle.stat()).isFile()) throw new Error("not a regular file");
  } catch (error) {
    await handle?.close();
    throw new CliFailure("INPUT_UNREADABLE", `Cannot read ${file}: ${(error as Error).message}.`, {
      path: file,
    });
  }
  // The stream closes the handle when it ends or fails.
  return handle.createReadStream({ highWaterMark: READ_BLOCK_BYTES });
}

export async function putOutput(
  context: CliContext,
  file: string | undefined,
  options: PutOptions,
): Promise<number> {
  const content = await contentOf(file);
  const origin = {
    sessionId: options.session,
    toolName: options.tool,
    toolArgs: options.args,
    ...(options.toolCallId !== undefined ? { toolCallId: options.toolCallId } : {}),
  };
  const putOptions = {
    ...(options.binary ? { binary: true } : {}),
    ...(options.mediaType !== undefined ? { mediaType: options.mediaType } : {}),
  };
  let record: OutputRecord;
  try {
    const storeOptions =
      options.maxOutputBytes !== undefined ? { maxOutputBytes: options.maxOutputBytes } : {};
    record = await withStore(
      context,
      (store) => store.put(origin, content, putOptions),
      storeOptions,
    );
  } finally {
    // Releases the file if the store stopped reading early (e.g. OUTPUT_TOO_LARGE).
    if (content !== process.stdin) content.destroy();
  }
  if (context.json) {
    await context.out.json(record);
    return EXIT_OK;
  }
  await context.out.lines([record.id]);
  const size = record.byteSize ?? 0;
  context.out.note(
    `# stored ${formatBytes(size)} (${formatCount(size)} bytes)` +
      (record.kind === "binary"
        ? ", binary"
        : `, ${formatCount(record.lineCount ?? 0)} lines, ~${formatCount(record.tokenEstimate ?? 0)} tokens, kind ${record.kind}`) +
      ` in session ${record.sessionId}`,
  );
  return EXIT_OK;
}
