import type { OutputKind } from "../core/kinds.js";
import type { BlobSource } from "./blob-source.js";
import type { OutputContent } from "./ingest.js";
import type { LineIndex } from "./line-index.js";

export type OutputStatus = "running" | "ready" | "failed";

/**
 * The canonical record of one tool result. Its `id` is the handle a model sees. Size figures
 * describe the stored (sanitized) content; they are null while the tool is running or when it
 * failed.
 */
export interface OutputRecord {
  /** The handle: `out_` + 128 random bits in base32. */
  readonly id: string;
  readonly sessionId: string;
  readonly toolName: string;
  /** The tool's arguments exactly as received (JSON text). */
  readonly toolArgs: string;
  readonly toolCallId: string | null;
  readonly status: OutputStatus;
  /** The tool's error when status is `failed`. */
  readonly error: string | null;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly completedAt: number | null;
  readonly byteSize: number | null;
  /** UTF-16 code units, as JavaScript counts string length. */
  readonly charCount: number | null;
  readonly lineCount: number | null;
  readonly tokenEstimate: number | null;
  /** How the token figure was made, e.g. `sampled:o200k_base:64x2048` or `exact:o200k_base`. */
  readonly tokenMethod: string | null;
  readonly kind: OutputKind | null;
  /** Media type for binary content (e.g. `image/png`), when the tool said. */
  readonly mediaType: string | null;
  readonly sha256: string | null;
  /** True when lone surrogates in the tool's text were replaced before storing. */
  readonly sanitized: boolean;
  /** How many retrievals have read this output. */
  readonly readCount: number;
}

/** Who is reading. Sessions are isolation boundaries: another session's output is "not found". */
export type ReadScope = { readonly sessionId: string } | { readonly allSessions: true };

/** The metadata of a tool call whose output is about to be stored. */
export interface OutputOrigin {
  readonly sessionId: string;
  readonly toolName: string;
  /** Verbatim JSON text of the tool's arguments. */
  readonly toolArgs: string;
  readonly toolCallId?: string;
  /** When the tool call started (defaults to now). */
  readonly createdAt?: number;
}

export interface PutOutputOptions {
  /** Store as bytes, kind `binary` (MCP image/blob content). */
  readonly binary?: boolean;
  readonly mediaType?: string;
}

export interface ListOutputsFilter {
  readonly sessionId?: string;
  readonly status?: OutputStatus;
  /** Newest first; default 100. */
  readonly limit?: number;
  /** Skip this many (newest first), to page through a long list. */
  readonly offset?: number;
}

/** An output opened for reading: its record, index and bytes. Close it when done. */
export interface OpenedOutput {
  readonly record: OutputRecord & { readonly status: "ready"; readonly sha256: string };
  readonly source: BlobSource;
  /** Null for binary outputs. */
  readonly index: LineIndex | null;
  close(): Promise<void>;
}

export interface VerifyResult {
  readonly id: string;
  readonly ok: boolean;
  readonly expectedSha256: string;
  readonly actualSha256: string;
  readonly byteSize: number;
}

/**
 * The canonical, durable store of tool outputs. Implementations: SQLite (default); the
 * interface is asynchronous so a networked database can implement it unchanged.
 *
 * @example
 * const store = await openSqliteOutputStore({ home: "/tmp/spillway" });
 * const output = await store.put(
 *   { sessionId: "ses_1", toolName: "fs__read_file", toolArgs: '{"path":"big.log"}' },
 *   hugeText,
 * );
 * const scope = { sessionId: "ses_1" };
 * const opened = await store.open(output.id, scope);
 */
export interface OutputStore {
  /** Where the store lives (a directory for SQLite). */
  readonly location: string;
  /** The largest payload `put`/`complete` accept, in bytes. */
  readonly maxOutputBytes: number;

  /** Stores a finished tool result whole, before anything decides what a model sees. */
  put(
    origin: OutputOrigin,
    content: OutputContent,
    options?: PutOutputOptions,
  ): Promise<OutputRecord>;
  /** Records a tool call that is still running (its id can be shown before it finishes). */
  begin(origin: OutputOrigin): Promise<OutputRecord>;
  /** Stores the content of a running output and marks it ready. */
  complete(id: string, content: OutputContent, options?: PutOutputOptions): Promise<OutputRecord>;
  /** Marks a running output failed with the tool's error. */
  fail(id: string, error: string): Promise<OutputRecord>;

  /** The record, or OUTPUT_NOT_FOUND when it does not exist in this scope. */
  get(id: string, scope: ReadScope): Promise<OutputRecord>;
  list(filter?: ListOutputsFilter): Promise<OutputRecord[]>;
  /** Opens a ready output for reading (OUTPUT_NOT_READY / OUTPUT_FAILED otherwise). */
  open(id: string, scope: ReadScope): Promise<OpenedOutput>;
  /**
   * Counts retrievals of an output: one, or `times` at once (a server batches the reads it
   * answered, so a read does not wait for a durable write).
   */
  countRead(id: string, times?: number): Promise<void>;
  /** Re-hashes the stored bytes and compares with the record. */
  verify(id: string, scope: ReadScope): Promise<VerifyResult>;
  close(): Promise<void>;
}
