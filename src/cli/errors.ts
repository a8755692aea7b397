/**
 * How the CLI reports failures, and which exit code each gets.
 *
 * Exit codes: 0 success; 1 a spillway error (OUTPUT_NOT_FOUND, INVALID_RANGE, STORE_CORRUPT, …)
 * or another runtime failure (an unreadable input file, an agent run that failed); 2 a usage
 * error (unknown command or option, a missing argument, an invalid flag value); 130 an agent
 * run aborted by Ctrl-C.
 *
 * Human mode prints `error CODE: message` (plus a hint line when there is one) to stderr and
 * never a stack trace for expected errors. With `--json`, the error is the one JSON document
 * on stdout, `{"error": {"code", "message", "details"}}`, so a script reads stdout either way
 * and branches on the exit code; stderr stays empty.
 */
import { CommanderError } from "commander";
import { isSpillwayError } from "../core/errors.js";
import { printable, terminalJson } from "./terminal-text.js";

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;
/** `spillway run` stopped by Ctrl-C (SIGINT): the session is recorded as aborted. */
export const EXIT_ABORTED = 130;

/** A bad command line the parser could not catch (e.g. contradictory flags). Exit 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** A runtime failure outside the store (e.g. an input file that cannot be read). Exit 1. */
export class CliFailure extends Error {
  override readonly name = "CliFailure";
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The reader of stdout went away (e.g. `| head`): stop quietly. */
export class BrokenPipeError extends Error {
  override readonly name = "BrokenPipeError";
  constructor() {
    super("stdout closed");
  }
}

/** What gets printed for one failure. */
interface Report {
  readonly exitCode: number;
  readonly code: string;
  readonly message: string;
  readonly details: Record<string, unknown>;
  readonly hint?: string;
}

const USAGE_HINT = "Run with --help for usage.";

/** Commander error codes that are not failures (help or version was asked for). */
const COMMANDER_OK = new Set(["commander.helpDisplayed", "commander.version"]);

/** Strips commander's own "error: " prefix; its messages are otherwise good. */
function commanderMessage(error: CommanderError): string {
  return error.message.replace(/^error:\s*/, "").trim();
}

function reportOf(error: unknown): Report | null {
  if (error instanceof CommanderError) {
    if (COMMANDER_OK.has(error.code)) return null;
    // Help printed because a subcommand was missing: commander already wrote it to stderr.
    if (error.code === "commander.help") {
      return {
        exitCode: EXIT_USAGE,
        code: "USAGE",
        message: "a subcommand is required",
        details: {},
      };
    }
    return {
      exitCode: EXIT_USAGE,
      code: "USAGE",
      message: commanderMessage(error),
      details: { commanderCode: error.code },
      hint: USAGE_HINT,
    };
  }
  if (error instanceof UsageError) {
    return {
      exitCode: EXIT_USAGE,
      code: "USAGE",
      message: error.message,
      details: {},
      hint: USAGE_HINT,
    };
  }
  if (isSpillwayError(error)) {
    const { code, message, details } = error.toJSON();
    return {
      exitCode: EXIT_ERROR,
      code,
      message,
      details,
      ...(code === "OUTPUT_NOT_FOUND"
        ? { hint: 'Run "spillway outputs list" to see the stored output ids.' }
        : {}),
    };
  }
  if (error instanceof CliFailure) {
    return {
      exitCode: EXIT_ERROR,
      code: error.code,
      message: error.message,
      details: error.details,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  if (error instanceof Error && typeof errno === "string" && /^E[A-Z]+$/.test(errno)) {
    // A system error (disk full, permission denied, …): not a bug, no stack trace.
    return { exitCode: EXIT_ERROR, code: "IO_ERROR", message, details: { errno } };
  }
  return {
    exitCode: EXIT_ERROR,
    code: "INTERNAL",
    message,
    details: {},
    hint: "This is a bug in spillway. Set SPILLWAY_DEBUG=1 to see the stack trace.",
  };
}

/** Where reports go; injectable for tests. */
export interface ErrorSink {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * Prints a failure in human or JSON form and returns the exit code it maps to. Help and
 * version "errors" from commander return 0 and print nothing more. With `jsonLines` (commands
 * whose --json output is JSON Lines, like `run`), the JSON error is one line with
 * `"type": "error"`.
 */
export function reportError(
  error: unknown,
  json: boolean,
  sink: ErrorSink,
  options: { readonly jsonLines?: boolean } = {},
): number {
  if (error instanceof BrokenPipeError) return EXIT_OK;
  const report = reportOf(error);
  if (report === null) return EXIT_OK;
  if (json) {
    const body = {
      error: {
        code: report.code,
        message: report.message,
        details: report.details,
        ...(report.hint ? { hint: report.hint } : {}),
      },
    };
    sink.stdout(
      options.jsonLines
        ? `${terminalJson({ type: "error", ...body })}\n`
        : `${terminalJson(body, 2)}\n`,
    );
  } else if (!(error instanceof CommanderError && error.code === "commander.help")) {
    // Messages quote stored data (ids, tool names, patterns): shown escaped, like all output.
    sink.stderr(`error ${printable(report.code)}: ${printable(report.message)}\n`);
    if (report.hint) sink.stderr(`${printable(report.hint)}\n`);
  }
  if (report.code === "INTERNAL" && process.env.SPILLWAY_DEBUG && error instanceof Error) {
    sink.stderr(`${error.stack ?? ""}\n`);
  }
  return report.exitCode;
}
