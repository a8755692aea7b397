/**
 * HTTP errors: every error answers as JSON `{ code, message, details }` with the status that
 * means it. Library errors (SpillwayError) keep their code; HTTP-only conditions (no token, a
 * body over the limit, too many requests, a busy session) have codes of their own.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import { type ErrorCode, isSpillwayError } from "../core/errors.js";

/** Codes only the HTTP server answers with (library errors keep theirs). */
export type HttpOnlyCode =
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "RATE_LIMITED"
  | "SESSION_BUSY"
  | "SESSION_NOT_RUNNING"
  | "REQUEST_TIMEOUT"
  | "TOO_MANY_UPLOADS"
  | "CLIENT_ABORTED"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "INTERNAL";

export type HttpErrorCode = ErrorCode | HttpOnlyCode;

/** The JSON body of every error response. */
export interface ErrorBody {
  readonly code: HttpErrorCode;
  readonly message: string;
  readonly details: Record<string, unknown>;
}

/**
 * An error that knows its HTTP status. Throw it from a route; the error middleware answers
 * `{ code, message, details }` with `status`.
 *
 * @example
 * throw new HttpProblem(409, "SESSION_BUSY", "Session ses_1 is still running.", { sessionId: "ses_1" });
 */
export class HttpProblem extends Error {
  override readonly name = "HttpProblem";
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: HttpErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toJSON(): ErrorBody {
    return { code: this.code, message: this.message, details: this.details };
  }
}

const STATUS_BY_CODE: Partial<Record<ErrorCode, ContentfulStatusCode>> = {
  OUTPUT_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  OUTPUT_NOT_READY: 409,
  OUTPUT_FAILED: 409,
  OUTPUT_TOO_LARGE: 413,
  RANGE_TOO_LARGE: 400,
  INVALID_RANGE: 400,
  INVALID_ARGUMENT: 400,
  INVALID_PATTERN: 400,
  PATTERN_TIMEOUT: 422,
  INVALID_QUERY: 400,
  QUERY_TIMEOUT: 422,
  QUERY_TOO_COSTLY: 422,
  INVALID_JSON: 422,
  UNSUPPORTED_KIND: 400,
  CONFIG_INVALID: 400,
  AGENT_FILE_INVALID: 400,
  UNKNOWN_PROVIDER: 400,
  MISSING_API_KEY: 400,
  STORE_UNAVAILABLE: 503,
  MODEL_UNAVAILABLE: 502,
  MCP_SERVER_FAILED: 502,
};

/** The status and body an error answers with (unknown errors: 500, message kept generic). */
export function errorResponseOf(error: unknown): {
  status: ContentfulStatusCode;
  body: ErrorBody;
  headers: Record<string, string>;
} {
  if (error instanceof HttpProblem)
    return { status: error.status, body: error.toJSON(), headers: error.headers };
  if (isSpillwayError(error)) {
    return {
      // The caller's input (over HTTP, a "model" fault is the client's request): never a 500.
      status:
        STATUS_BY_CODE[error.code] ??
        (error.fault === "user" || error.fault === "model" ? 400 : 500),
      body: error.toJSON(),
      headers: {},
    };
  }
  return {
    status: 500,
    body: {
      code: "INTERNAL",
      message: "The server failed to answer this request; the error is in the server's log.",
      details: {},
    },
    headers: {},
  };
}

/**
 * A 400 naming every field at fault, from a zod error. `where` says which part of the request
 * the fields are in (`query`, `path`, `body`, `header`).
 */
export function invalidInput(where: string, error: ZodError): HttpProblem {
  const fields = error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({
          field: [where, ...issue.path.map(String), key].join("."),
          problem: "not a known field",
        }))
      : [{ field: [where, ...issue.path.map(String)].join("."), problem: issue.message }],
  );
  const first = fields[0];
  return new HttpProblem(
    400,
    "INVALID_ARGUMENT",
    first
      ? `Invalid ${first.field}: ${first.problem}${fields.length > 1 ? ` (and ${fields.length - 1} more)` : ""}`
      : `Invalid ${where}.`,
    { fields },
  );
}
