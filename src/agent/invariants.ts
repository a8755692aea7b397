import { AsyncLocalStorage } from "node:async_hooks";
import { SpillwayError } from "../core/errors.js";
import type {
  HistoryMessage,
  HistoryPart,
  HistoryStore,
  MessageRole,
  NewSession,
  NewSummary,
  SessionRecord,
  SummaryRecord,
  ToolCallRecord,
  ToolCallStatus,
  ToolResultRef,
} from "../store/history.js";
import type { OutputRecord } from "../store/output-store.js";

/**
 * The long-session invariants, checked at run time:
 * - `canonical_tool_result_is_lossless`: a tool's raw result is stored whole (the stored size
 *   is the size received), and no canonical tool result carries a projection's shortening
 *   banner;
 * - `transport_truncation_must_not_mutate_canonical_history`: code running as a projection or
 *   transport limiter (model input, SSE, CLI lines) never writes the canonical history.
 * The second always throws (it is a bug wherever it happens); the first is reported as an
 * `invariant` event and a warning, and throws when `SPILLWAY_STRICT_INVARIANTS=1` (the test
 * suite runs so).
 */

export type InvariantName =
  | "canonical_tool_result_is_lossless"
  | "transport_truncation_must_not_mutate_canonical_history";

export interface InvariantViolation {
  readonly invariant: InvariantName;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

const scope = new AsyncLocalStorage<string>();

/**
 * Runs `work` as a projection or transport limiter named `what`: inside it, any write to a
 * guarded history store throws INVARIANT_VIOLATED. Reads are free.
 *
 * @example
 * const lines = await asProjection("sse", () => renderEventsForTransport(session));
 */
export function asProjection<T>(what: string, work: () => Promise<T>): Promise<T> {
  return scope.run(what, work);
}

/** The projection or limiter running now, if any. */
export function activeProjection(): string | undefined {
  return scope.getStore();
}

/**
 * The banners a projection or transport limiter adds when it shortens something for sending.
 * They belong in what is sent, never in the canonical history. (The head-and-tail marker
 * "[… truncated: N of M characters omitted here" is not one: besides legacy mode's projection,
 * it is the answer of a truncate read the model asked for, which is canonical.)
 */
const PROJECTION_BANNERS: readonly RegExp[] = [
  /removed from this context to make room/,
  /\[truncated — showing \d+\/\d+ chars\. Call get_continuation/,
  /truncatedContentId/,
];

/** The projection banner in `text`, if it carries one. */
export function projectionBannerIn(text: string): string | undefined {
  for (const banner of PROJECTION_BANNERS) {
    const match = banner.exec(text);
    if (match) return match[0];
  }
  return undefined;
}

/** The texts of a canonical tool result (its stored outputs are checked where they are written). */
function resultTexts(ref: ToolResultRef, into: string[]): void {
  if (ref.kind === "retrieval" || ref.kind === "note") into.push(ref.text);
  else if (ref.kind === "error") into.push(ref.message);
  else if (ref.kind === "batch") for (const item of ref.items) resultTexts(item.ref, into);
}

/** The projection banner a canonical message's tool results carry, if any. */
export function bannerInParts(parts: readonly HistoryPart[]): string | undefined {
  for (const part of parts) {
    if (part.type !== "tool-result") continue;
    const texts: string[] = [];
    resultTexts(part.result, texts);
    for (const text of texts) {
      const banner = projectionBannerIn(text);
      if (banner) return banner;
    }
  }
  return undefined;
}

/** Whether violations of `canonical_tool_result_is_lossless` throw (SPILLWAY_STRICT_INVARIANTS=1). */
export function strictInvariants(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.SPILLWAY_STRICT_INVARIANTS === "1";
}

function violationError(violation: InvariantViolation): SpillwayError {
  return new SpillwayError(
    "INVARIANT_VIOLATED",
    `Invariant ${violation.invariant} violated: ${violation.message}`,
    { invariant: violation.invariant, ...violation.details },
    { fault: "internal" },
  );
}

/**
 * Checks that a raw result was stored whole: its records (text and binary parts) are complete
 * and hold together as many bytes as the tool produced.
 */
export function checkStoredWhole(
  records: readonly OutputRecord[],
  receivedBytes: number,
): InvariantViolation | undefined {
  const storedBytes = records.reduce((sum, r) => sum + (r.byteSize ?? 0), 0);
  const complete = records.every((r) => r.status === "ready" && r.sha256 !== null);
  if (complete && storedBytes === receivedBytes) return undefined;
  const ids = records.map((r) => r.id);
  return {
    invariant: "canonical_tool_result_is_lossless",
    message: `the result of ${records[0]?.toolName ?? "a tool"} was stored as ${ids.join(", ")} with ${storedBytes} bytes${complete ? "" : " (not complete)"}, but the tool produced ${receivedBytes}`,
    details: { outputIds: ids, storedBytes, receivedBytes },
  };
}

/** Reports a violation: always to `report`; thrown too when strict. */
export function reportViolation(
  violation: InvariantViolation,
  report: (violation: InvariantViolation) => void,
  strict: boolean,
): void {
  report(violation);
  if (strict) throw violationError(violation);
}

/**
 * A history store that enforces the invariants on every write: no write from inside a
 * projection ({@link asProjection}), and no projection banner in a canonical tool result.
 *
 * @example
 * const history = new GuardedHistoryStore(stores.history, (v) => console.warn(v.message), true);
 */
export class GuardedHistoryStore implements HistoryStore {
  constructor(
    private readonly inner: HistoryStore,
    private readonly report: (violation: InvariantViolation) => void,
    private readonly strict = strictInvariants(),
  ) {}

  private writing(operation: string): void {
    const projection = activeProjection();
    if (projection === undefined) return;
    const violation: InvariantViolation = {
      invariant: "transport_truncation_must_not_mutate_canonical_history",
      message: `${operation} was called from the ${projection} projection, which may only read the canonical history`,
      details: { operation, projection },
    };
    this.report(violation);
    throw violationError(violation);
  }

  private checkParts(parts: readonly HistoryPart[], where: string): void {
    const banner = bannerInParts(parts);
    if (banner === undefined) return;
    reportViolation(
      {
        invariant: "canonical_tool_result_is_lossless",
        message: `${where} carries the projection banner "${banner}"`,
        details: { where, banner },
      },
      this.report,
      this.strict,
    );
  }

  async createSession(session: NewSession): Promise<SessionRecord> {
    this.writing("createSession");
    return this.inner.createSession(session);
  }
  getSession(id: string): Promise<SessionRecord> {
    return this.inner.getSession(id);
  }
  listSessions(filter?: {
    limit?: number;
    offset?: number;
    parentSessionId?: string | null;
  }): Promise<SessionRecord[]> {
    return this.inner.listSessions(filter);
  }
  async updateSession(
    id: string,
    patch: Partial<
      Pick<SessionRecord, "status" | "finalReport" | "error" | "turns" | "accounting">
    >,
  ): Promise<void> {
    this.writing("updateSession");
    return this.inner.updateSession(id, patch);
  }
  async appendMessage(
    sessionId: string,
    turn: number,
    role: MessageRole,
    parts: readonly HistoryPart[],
  ): Promise<HistoryMessage> {
    this.writing("appendMessage");
    this.checkParts(parts, `a ${role} message of session ${sessionId}`);
    return this.inner.appendMessage(sessionId, turn, role, parts);
  }
  messages(
    sessionId: string,
    options?: { readonly afterSeq?: number; readonly limit?: number },
  ): Promise<HistoryMessage[]> {
    return this.inner.messages(sessionId, options);
  }
  async startToolCall(
    call: Omit<ToolCallRecord, "status" | "outputId" | "error" | "finishedAt">,
  ): Promise<void> {
    this.writing("startToolCall");
    return this.inner.startToolCall(call);
  }
  async finishToolCall(
    sessionId: string,
    toolCallId: string,
    outcome: { status: Exclude<ToolCallStatus, "running">; outputId?: string; error?: string },
    result: { turn: number; toolName: string; ref: ToolResultRef },
  ): Promise<HistoryMessage> {
    this.writing("finishToolCall");
    this.checkParts(
      [{ type: "tool-result", toolCallId, toolName: result.toolName, result: result.ref }],
      `the result of ${result.toolName} (${toolCallId})`,
    );
    return this.inner.finishToolCall(sessionId, toolCallId, outcome, result);
  }
  toolCalls(sessionId: string): Promise<ToolCallRecord[]> {
    return this.inner.toolCalls(sessionId);
  }
  /** A compaction's own record: allowed from the projection (it never touches history rows). */
  appendSummary(summary: NewSummary): Promise<SummaryRecord> {
    return this.inner.appendSummary(summary);
  }
  summaries(sessionId: string): Promise<SummaryRecord[]> {
    return this.inner.summaries(sessionId);
  }
}
