/**
 * Typed errors. Callers branch on `error.code`, never on message text.
 *
 * Every error carries the structured fields a caller needs to recover (which output, which
 * argument, what would have been valid), and a message that says the same in words, so the
 * CLI can print it and a model can read it as a tool error.
 */

/** Who is at fault, so a runtime can decide what to do (tell the user, tell the model, retry). */
export type ErrorFault = "user" | "model" | "tool" | "store" | "internal";

/** The string codes of every {@link SpillwayError}. */
export const ERROR_CODES = [
  "OUTPUT_NOT_FOUND",
  "OUTPUT_NOT_READY",
  "OUTPUT_FAILED",
  "OUTPUT_TOO_LARGE",
  "RANGE_TOO_LARGE",
  "INVALID_RANGE",
  "INVALID_ARGUMENT",
  "INVALID_PATTERN",
  "PATTERN_TIMEOUT",
  "INVALID_QUERY",
  "QUERY_TIMEOUT",
  "QUERY_TOO_COSTLY",
  "INVALID_JSON",
  "UNSUPPORTED_KIND",
  "STORE_CORRUPT",
  "STORE_UNAVAILABLE",
  "SESSION_QUOTA_EXCEEDED",
  // A worker that lost a session's lease may not write its history any more.
  "LEASE_LOST",
  // Configuration and agent files (fault: user).
  "CONFIG_INVALID",
  "AGENT_FILE_INVALID",
  "UNKNOWN_PROVIDER",
  "MISSING_API_KEY",
  // Models and tools at run time.
  "MODEL_UNAVAILABLE",
  "MODEL_CALL_FAILED",
  // Local models (GGUF files run in-process).
  "MODEL_FILE_NOT_FOUND",
  "MODEL_FILE_INVALID",
  "DEPENDENCY_MISSING",
  "DOWNLOAD_FAILED",
  "MCP_SERVER_FAILED",
  "TOOL_FAILED",
  "TOOL_TIMEOUT",
  "UNKNOWN_TOOL",
  "INVALID_TOOL_ARGUMENTS",
  "SESSION_NOT_FOUND",
  "ABORTED",
  // Extraction (model-driven reads of outputs).
  "EXTRACTION_FAILED",
  "EXTRACTION_DECLINED",
  // The long-session runtime assertions (fault: internal).
  "INVARIANT_VIOLATED",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The brand every spillway error carries. `Symbol.for` makes it the same symbol in every copy
 * of the package, so the check works where `instanceof` fails: two installed versions side by
 * side, or a module loaded twice.
 */
const SPILLWAY_ERROR_BRAND = Symbol.for("spillway.error");

/**
 * Base class of all typed spillway errors.
 *
 * @example
 * try {
 *   await readOutput(store, "out_missing", { sessionId }, { mode: "raw" });
 * } catch (error) {
 *   if (SpillwayError.isInstance(error) && error.code === "OUTPUT_NOT_FOUND") console.log(error.details);
 * }
 */
export class SpillwayError extends Error {
  /** True for a spillway error from any copy of the package (see {@link isSpillwayError}). */
  static isInstance(value: unknown): value is SpillwayError {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[SPILLWAY_ERROR_BRAND] === true
    );
  }

  readonly [SPILLWAY_ERROR_BRAND] = true;
  override readonly name: string = "SpillwayError";
  readonly code: ErrorCode;
  readonly fault: ErrorFault;
  /** Structured, JSON-serializable details (ids, sizes, valid values). */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    options: { fault?: ErrorFault; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.fault = options.fault ?? "user";
    this.details = details;
  }

  /** A plain object for `--json` output, HTTP bodies and tool-error payloads. */
  toJSON(): { code: ErrorCode; message: string; details: Record<string, unknown> } {
    return { code: this.code, message: this.message, details: { ...this.details } };
  }
}

/**
 * True when `value` is a {@link SpillwayError} (from any installed copy of spillway), optionally
 * with one of the given codes.
 *
 * @example
 * if (isSpillwayError(error, "OUTPUT_NOT_FOUND", "OUTPUT_NOT_READY")) retryLater(error.details);
 */
export function isSpillwayError(value: unknown, ...codes: ErrorCode[]): value is SpillwayError {
  return SpillwayError.isInstance(value) && (codes.length === 0 || codes.includes(value.code));
}

/** The read modes a caller can use instead of a whole-output read. */
export type ReadMode = "raw" | "slice" | "grep" | "page" | "json" | "search";

export class OutputNotFoundError extends SpillwayError {
  override readonly name = "OutputNotFoundError";
  readonly outputId: string;
  /** `sessionScoped`: the read was limited to one session (another session's ids are hidden). */
  constructor(outputId: string, sessionScoped = true) {
    super(
      "OUTPUT_NOT_FOUND",
      sessionScoped
        ? `No output with id "${outputId}" is visible here. Output ids look like "out_…" and are ` +
            "only readable from the session that stored them; use an id from this session's tool results."
        : `No output with id "${outputId}" exists in this store. Output ids look like "out_…".`,
      { outputId },
      { fault: "model" },
    );
    this.outputId = outputId;
  }
}

export class OutputNotReadyError extends SpillwayError {
  override readonly name = "OutputNotReadyError";
  readonly outputId: string;
  constructor(outputId: string, toolName: string) {
    super(
      "OUTPUT_NOT_READY",
      `Output "${outputId}" of tool ${toolName} is still running; its content is not stored yet.`,
      { outputId, toolName, status: "running" },
      { fault: "model" },
    );
    this.outputId = outputId;
  }
}

export class OutputFailedError extends SpillwayError {
  override readonly name = "OutputFailedError";
  readonly outputId: string;
  constructor(outputId: string, toolName: string, toolError: string) {
    super(
      "OUTPUT_FAILED",
      `Tool ${toolName} failed, so output "${outputId}" has no content. The tool's error: ${toolError}`,
      { outputId, toolName, status: "failed", error: toolError },
      { fault: "tool" },
    );
    this.outputId = outputId;
  }
}

/** A whole read (raw/export) or a stored payload over a size limit. */
export class OutputTooLargeError extends SpillwayError {
  override readonly name = "OutputTooLargeError";
  constructor(
    message: string,
    details: {
      outputId?: string;
      byteSize?: number;
      charCount?: number;
      lineCount?: number;
      tokenEstimate?: number;
      limit: number;
      limitUnit: "bytes" | "chars";
      modes?: ReadMode[];
    },
  ) {
    super("OUTPUT_TOO_LARGE", message, details, { fault: "user" });
  }
}

/** An argument outside its valid range; names the argument and what would be valid. */
export class InvalidRangeError extends SpillwayError {
  override readonly name = "InvalidRangeError";
  constructor(argument: string, value: unknown, valid: string, outputId?: string) {
    super(
      "INVALID_RANGE",
      `${argument}=${JSON.stringify(value)} is out of range${outputId ? ` for output "${outputId}"` : ""}: valid is ${valid}.`,
      { argument, value, valid, ...(outputId ? { outputId } : {}) },
      { fault: "model" },
    );
  }
}

/** A missing, mistyped or contradictory argument. */
export class InvalidArgumentError extends SpillwayError {
  override readonly name = "InvalidArgumentError";
  constructor(argument: string, problem: string, valid: string) {
    super(
      "INVALID_ARGUMENT",
      `Argument ${argument}: ${problem}. Valid: ${valid}.`,
      { argument, problem, valid },
      { fault: "model" },
    );
  }
}

export class StoreCorruptError extends SpillwayError {
  override readonly name = "StoreCorruptError";
  constructor(message: string, details: Record<string, unknown>, cause?: unknown) {
    super("STORE_CORRUPT", message, details, { fault: "store", cause });
  }
}
