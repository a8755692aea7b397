/**
 * Turns zod issues into problems a person or a model can act on: the key path, the line, the
 * value that was given and what is allowed.
 */
import type { z } from "zod";
import { type ErrorCode, SpillwayError } from "../core/errors.js";
import { PROVIDER_NAMES } from "./model-ref.js";
import type { IssueParams } from "./schema-helpers.js";

/** One thing wrong with a config file, an agent file or CLI settings. */
export interface ConfigProblem {
  /** Dotted key path, e.g. `toolOutput.surface` (empty for the document itself). */
  key: string;
  /** 1-based line in the file, when known. */
  line?: number;
  /** The value given (absent when the key is missing). */
  value?: unknown;
  /** What is allowed, when the problem is a wrong value. */
  expected?: string;
  /** What went wrong, in words, starting after the key. */
  text: string;
  /** The provider, when the problem is a model ref with an unknown provider. */
  unknownProvider?: string;
}

/** Finds the line of a key path in the source text. */
export type Locate = (path: readonly PropertyKey[]) => number | undefined;

/** The dotted form of a key path: `mcpServers.fs.args.0`. */
export function keyPath(path: readonly PropertyKey[]): string {
  return path.map((segment) => String(segment)).join(".");
}

/** Shows a value briefly, as JSON. */
export function showValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * The value at `path`. A path that runs into a scalar (a single model ref given where a list
 * is read) stops there; a key absent from its mapping is `found: false`.
 */
function valueAt(
  input: unknown,
  path: readonly PropertyKey[],
): { found: boolean; value?: unknown; path: PropertyKey[] } {
  let current = input;
  const walked: PropertyKey[] = [];
  for (const segment of path) {
    if (typeof current !== "object" || current === null) break;
    const container = current as Record<PropertyKey, unknown>;
    if (!Object.hasOwn(container, segment)) return { found: false, path: [...path] };
    current = container[segment];
    walked.push(segment);
  }
  return { found: true, value: current, path: walked };
}

function allowed(message: string): string {
  return message.replace(/^Invalid input: expected /, "");
}

/**
 * One problem per zod issue.
 *
 * @example
 * const result = frontmatterSchema.safeParse(data);
 * if (!result.success) problemsFromIssues(result.error.issues, data, locate);
 */
export function problemsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  locate: Locate = () => undefined,
): ConfigProblem[] {
  return issues.map((issue) => {
    const params: IssueParams = (issue.code === "custom" ? issue.params : undefined) ?? {};
    if (issue.code === "unrecognized_keys") {
      const first = issue.keys[0] ?? "";
      const single = issue.keys.length === 1;
      const at = valueAt(input, [...issue.path, first]);
      const line = locate([...issue.path, first]);
      return {
        key: keyPath(single ? [...issue.path, first] : issue.path),
        ...(line !== undefined ? { line } : {}),
        ...(single && at.found ? { value: at.value } : {}),
        text: issue.message,
      };
    }
    if (issue.code === "invalid_key") {
      const name = issue.path[issue.path.length - 1];
      const nested = issue.issues[0];
      const nestedParams: IssueParams =
        (nested?.code === "custom" ? nested.params : undefined) ?? {};
      const line = locate(issue.path);
      const expected = allowed(nested?.message ?? "a valid key");
      return {
        key: keyPath(issue.path),
        ...(line !== undefined ? { line } : {}),
        value: name,
        ...(nestedParams.sentence ? {} : { expected }),
        text: nestedParams.sentence
          ? (nested?.message ?? "invalid key")
          : `the key ${showValue(name)} is not valid; expected ${expected}`,
        ...(nestedParams.kind === "unknown_provider" && nestedParams.provider !== undefined
          ? { unknownProvider: nestedParams.provider }
          : {}),
      };
    }
    const at = valueAt(input, issue.path);
    const line = locate(at.path);
    const base = {
      key: keyPath(at.path),
      ...(line !== undefined ? { line } : {}),
      ...(at.found && !params.secret ? { value: at.value } : {}),
    };
    if (params.sentence) {
      return {
        ...base,
        text: issue.message,
        ...(params.kind === "unknown_provider" && params.provider !== undefined
          ? { unknownProvider: params.provider }
          : {}),
      };
    }
    const expected = allowed(issue.message);
    const got = at.found ? `got ${showValue(at.value)}` : "missing";
    return { ...base, expected, text: `${got}; expected ${expected}` };
  });
}

function describe(problem: ConfigProblem): string {
  if (problem.key === "") {
    return problem.line !== undefined ? `line ${problem.line}: ${problem.text}` : problem.text;
  }
  const where = problem.line !== undefined ? ` (line ${problem.line})` : "";
  return `${problem.key}${where}: ${problem.text}`;
}

/**
 * Throws one error for all problems: `UNKNOWN_PROVIDER` when every problem is an unknown
 * provider, else `code`. The message names the file (or other subject) and each problem.
 *
 * @example
 * throwProblems("CONFIG_INVALID", "config file", "/p/spillway.config.yaml", problems);
 * // Invalid config file /p/spillway.config.yaml: maxTurns (line 3): got 0; expected …
 */
export function throwProblems(
  code: ErrorCode,
  subject: string,
  file: string | undefined,
  unsorted: readonly ConfigProblem[],
): never {
  const problems = [...unsorted].sort(
    (a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER),
  );
  const unknownProvider = problems.every((problem) => problem.unknownProvider !== undefined);
  const title = `Invalid ${subject}${file ? ` ${file}` : ""}`;
  const message =
    problems.length === 1
      ? `${title}: ${describe(problems[0]!)}.`
      : `${title} (${problems.length} problems):\n${problems.map((p) => `  - ${describe(p)}`).join("\n")}`;
  const first = problems[0];
  throw new SpillwayError(unknownProvider ? "UNKNOWN_PROVIDER" : code, message, {
    ...(file ? { file } : {}),
    ...(first ? { key: first.key } : {}),
    ...(first?.line !== undefined ? { line: first.line } : {}),
    ...(first && "value" in first ? { value: first.value } : {}),
    ...(first?.expected !== undefined ? { expected: first.expected } : {}),
    ...(unknownProvider ? { validProviders: [...PROVIDER_NAMES] } : {}),
    problems: problems.map((problem) => ({ ...problem })),
  });
}
