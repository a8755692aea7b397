/**
 * `outputs put [file]`: stores a file or stdin as a tool output, streamed in blocks (a
 * 500 MB file is never held in memory), and prints the new id.
 */
import { constants, fstatSync, type Stats, statSync } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import type { OutputRecord } from "../store/output-store.js";
import { type CliContext, withStore } from "./context.js";
import { CliFailure, EXIT_OK, UsageError } from "./errors.js";
import { formatBytes, formatCount } from "./format.js";
import { cleanTempsOnSignals } from "./signal-cleanup.js";

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
  readonly maxSessionBytes?: number;
}

const READ_BLOCK_BYTES = 1024 * 1024;

function unreadable(what: string, reason: string, path = what): CliFailure {
  return new CliFailure("INPUT_UNREADABLE", `Cannot read ${what}: ${reason}.`, { path });
}

/**
 * Stdin as a stream, after checking it can be read: a closed stdin (Node reopens fd 0 on
 * /dev/null) or a directory is refused, never stored as an empty output.
 */
function stdinStream(): Readable {
  if (process.stdin.isTTY) {
    throw new UsageError(
      "no file given and stdin is a terminal: pass a file, or pipe the content in (e.g. `cmd | spillway outputs put`)",
    );
  }
  let info: ReturnType<typeof fstatSync>;
  try {
    info = fstatSync(0);
  } catch (error) {
    throw unreadable("stdin", `it is closed (${(error as Error).message})`);
  }
  if (info.isDirectory()) throw unreadable("stdin", "it is a directory");
  if (info.isCharacterDevice() && info.rdev === statSync("/dev/null").rdev) {
    throw unreadable("stdin", "it is closed or /dev/null, so there is nothing to store");
  }
  // Node's own stdin stream (a pipe may be non-blocking: a plain fd read gets EAGAIN).
  return process.stdin;
}

/** The stream's chunks; a read error becomes INPUT_UNREADABLE (never a short output). */
async function* chunksOf(stream: Readable, name: string): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of stream) yield chunk as Uint8Array;
  } catch (error) {
    throw unreadable(name, (error as Error).message);
  }
}

/** What a file system entry is, in words, when it is not a regular file. */
function notRegular(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isFIFO()) return "a named pipe (FIFO)";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isDirectory()) return "a directory";
  return "not a regular file";
}

function notAFile(file: string, what: string): CliFailure {
  return new CliFailure(
    "INPUT_UNREADABLE",
    `Cannot store ${file}: it is ${what}. outputs put stores a regular file, or stdin: pipe anything else in (e.g. \`cat ${file} | spillway outputs put\`).`,
    { path: file, found: what, valid: "a regular file, or - for stdin" },
  );
}

/**
 * The content stream: the file's bytes, or stdin's. Anything but a regular file is refused
 * before it is opened (opening a FIFO without a writer would wait forever), and the opened
 * file is checked again (non-blocking) in case it was swapped in between.
 */
async function contentOf(file: string | undefined): Promise<Readable> {
  if (file === undefined || file === "-") return stdinStream();
  let handle: FileHandle | undefined;
  try {
    const before = notRegular(await stat(file));
    if (before) throw notAFile(file, before);
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const after = notRegular(await handle.stat());
    if (after) throw notAFile(file, after);
  } catch (error) {
    await handle?.close();
    if (error instanceof CliFailure) throw error;
    throw unreadable(file, (error as Error).message);
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
  const uninstall = cleanTempsOnSignals();
  try {
    const storeOptions = {
      ...(options.maxOutputBytes !== undefined ? { maxOutputBytes: options.maxOutputBytes } : {}),
      ...(options.maxSessionBytes !== undefined
        ? { maxSessionBytes: options.maxSessionBytes }
        : {}),
    };
    record = await withStore(
      context,
      (store) => store.put(origin, chunksOf(content, file ?? "stdin"), putOptions),
      storeOptions,
    );
  } finally {
    uninstall();
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
