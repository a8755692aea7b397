/**
 * A session's canonical history for `sessions show`, in order: the user prompt, assistant
 * text, tool calls (name and arguments), and each tool result as the model was shown it (the
 * projection, rendered again from the canonical result), with the handle always named.
 */
import { projectedResultText, viewerRenderContext } from "../agent/projected-result.js";
import type { RunPlan } from "../agent/run-settings.js";
import { isSpillwayError } from "../core/errors.js";
import type {
  HistoryMessage,
  HistoryPart,
  SessionRecord,
  SummaryRecord,
  ToolCallRecord,
  ToolResultRef,
} from "../store/history.js";
import type { SpillwayStores } from "../store/sqlite-history-store.js";
import { OWNER_SCOPE } from "./context.js";
import { formatBytes, formatCount, formatDuration } from "./format.js";

/** Lines of a projected result shown before "… (N more lines)", unless --full. */
export const RESULT_LINES = 20;
/** Characters of tool-call arguments shown, unless --full. */
const ARGS_CHARS = 500;
const INDENT = "  ";

export interface HistoryView {
  readonly stores: SpillwayStores;
  readonly session: SessionRecord;
  /** The session's run plan, when readable (needed to render projections). */
  readonly plan: RunPlan | null;
  readonly toolCalls: readonly ToolCallRecord[];
  /** Sub-agent sessions by the tool call that started them. */
  readonly children: ReadonlyMap<string, SessionRecord>;
  /** Show whole projections and arguments. */
  readonly full: boolean;
  /** Compaction summaries, shown after the last message each covers. */
  readonly summaries?: readonly SummaryRecord[];
}

/** Lines kept from the end of a clipped result. */
const TAIL_LINES = 5;
/** Lines a clipped result always keeps: legacy truncation markers (they name the handle). */
const KEEP = /^\[… truncated: /;

/**
 * Text cut to about `max` lines: the first and the last lines, the truncation markers in
 * between, and a line saying how many are left out.
 */
function clipLines(text: string, max: number, whole: boolean, more = ""): string[] {
  const lines = text.replace(/\n$/, "").split("\n");
  if (whole || lines.length <= max) return lines;
  const middle = lines.slice(max - TAIL_LINES, lines.length - TAIL_LINES);
  const kept = middle.filter((line) => KEEP.test(line));
  const hidden = middle.length - kept.length;
  return [
    ...lines.slice(0, max - TAIL_LINES),
    `… (${formatCount(hidden)} more line${hidden === 1 ? "" : "s"} here${more}; --full shows all)`,
    ...(kept.length > 0 ? [...kept, "…"] : []),
    ...lines.slice(-TAIL_LINES),
  ];
}

function indent(lines: readonly string[]): string[] {
  return lines.map((line) => (line === "" ? "" : `${INDENT}${line}`));
}

/** The one-line description of a canonical result, naming the handle. */
async function describeRef(view: HistoryView, ref: ToolResultRef): Promise<string> {
  switch (ref.kind) {
    case "output": {
      let size = "";
      try {
        const record = await view.stores.outputs.get(ref.outputId, OWNER_SCOPE);
        const lines = record.lineCount ?? 0;
        size = ` · ${formatBytes(record.byteSize ?? 0)} · ${formatCount(lines)} line${lines === 1 ? "" : "s"}`;
      } catch (error) {
        if (!isSpillwayError(error)) throw error;
        size = ` · (record unreadable: ${error.code})`;
      }
      const attachments = ref.attachments?.length
        ? ` · attachments ${ref.attachments.join(", ")}`
        : "";
      return `[${ref.outputId}${size} · shown as ${ref.shown}${ref.isError ? " · tool error" : ""}${attachments}]`;
    }
    case "retrieval":
      return `[read${ref.outputId ? ` of ${ref.outputId}` : ""}${ref.continuation ? ` · continuation ${formatCount(ref.continuation.shown)}/${formatCount(ref.continuation.total)} chars` : ""}${ref.isError ? " · error" : ""}]`;
    case "error":
      return `[error ${ref.code}]`;
    case "note":
      return "[note]";
    case "batch":
      return `[batch of ${ref.items.length} call${ref.items.length === 1 ? "" : "s"}]`;
    case "async": {
      // The answer was an async id; the output's status says how the tool ended.
      let status = "";
      try {
        const record = await view.stores.outputs.get(ref.outputId, OWNER_SCOPE);
        status =
          record.status === "ready"
            ? ` · ready · ${formatBytes(record.byteSize ?? 0)}`
            : record.status === "failed"
              ? ` · failed: ${record.error ?? "unknown error"}`
              : " · still running";
      } catch (error) {
        if (!isSpillwayError(error)) throw error;
        status = ` · (record unreadable: ${error.code})`;
      }
      return `[async ${ref.outputId} (${ref.trigger} trigger)${status}]`;
    }
  }
}

/** The projected text of a result, as the model was shown it. */
function projectedText(view: HistoryView, ref: ToolResultRef): Promise<string> {
  return projectedResultText(
    view.plan ? viewerRenderContext(view.stores.outputs, view.session, view.plan) : null,
    ref,
  );
}

function callLine(view: HistoryView, part: Extract<HistoryPart, { type: "tool-call" }>): string {
  const args =
    view.full || part.argsText.length <= ARGS_CHARS
      ? part.argsText
      : `${part.argsText.slice(0, ARGS_CHARS)}… (${formatCount(part.argsText.length)} chars)`;
  const child = view.children.get(part.toolCallId);
  return `→ ${part.toolName} ${args}  [${part.toolCallId}]${child ? `  → sub-agent session ${child.id}` : ""}`;
}

/**
 * What a clipped result's "more lines" note adds for a stored output: the command that prints it
 * whole (`outputs show` prints its record and a synopsis, not its content).
 *
 * @example
 * wholeOutputPointer("out_abc"); // "; the whole output: spillway outputs export out_abc"
 */
export function wholeOutputPointer(outputId: string): string {
  return `; the whole output: spillway outputs export ${outputId}`;
}

async function resultLines(
  view: HistoryView,
  message: HistoryMessage,
  part: Extract<HistoryPart, { type: "tool-result" }>,
): Promise<string[]> {
  const call = view.toolCalls.find((c) => c.toolCallId === part.toolCallId);
  const took =
    call?.finishedAt != null ? ` · ${formatDuration(call.finishedAt - call.startedAt)}` : "";
  const child = view.children.get(part.toolCallId);
  const header =
    `── turn ${message.turn} · result of ${part.toolName} [${part.toolCallId}${call ? ` · ${call.status}` : ""}${took}] ` +
    `${await describeRef(view, part.result)}${child ? ` · sub-agent session ${child.id} (${child.status})` : ""}`;
  const ref = part.result;
  const more = ref.kind === "output" ? wholeOutputPointer(ref.outputId) : "";
  // A handle message is short by design and is the point of the projection: always whole.
  const whole = view.full || (ref.kind === "output" && ref.shown === "handle");
  const text = await projectedText(view, ref);
  return [header, ...indent(clipLines(text, RESULT_LINES, whole, more)), ""];
}

/** The history as display lines. */
export async function historyLines(
  view: HistoryView,
  messages: readonly HistoryMessage[],
): Promise<string[]> {
  const lines: string[] = [];
  const summaries = new Map((view.summaries ?? []).map((s) => [s.throughSeq, s]));
  for (const message of messages) {
    lines.push(...(await messageLines(view, message)));
    const summary = summaries.get(message.seq);
    if (summary) lines.push(...summaryLines(view, summary));
  }
  return lines;
}

/** A compaction summary, where it stands: after the last message it covers (which is unchanged). */
function summaryLines(view: HistoryView, s: SummaryRecord): string[] {
  const turns =
    s.fromTurn === s.throughTurn ? `turn ${s.fromTurn}` : `turns ${s.fromTurn}-${s.throughTurn}`;
  return [
    `── compaction ${s.seq} · ${turns} (messages ${s.fromSeq}-${s.throughSeq}) · ${formatCount(s.tokensBefore)} → ${formatCount(s.tokensAfter)} tokens · ` +
      `a record of its own; the messages above are unchanged. The model is sent, in their place:`,
    ...indent(clipLines(s.text, RESULT_LINES, view.full, "")),
    "",
  ];
}

/** One history message as display lines. */
async function messageLines(view: HistoryView, message: HistoryMessage): Promise<string[]> {
  if (message.role === "tool") {
    const lines: string[] = [];
    for (const part of message.parts)
      if (part.type === "tool-result") lines.push(...(await resultLines(view, message, part)));
    return lines;
  }
  const body: string[] = [];
  for (const part of message.parts) {
    if (part.type === "text") body.push(...part.text.replace(/\n$/, "").split("\n"));
    else if (part.type === "tool-call") body.push(callLine(view, part));
  }
  return [
    `── turn ${message.turn} · ${message.role}`,
    ...indent(body.length > 0 ? body : ["(empty)"]),
    "",
  ];
}
