import { guided } from "../config/guidance.js";
import type { ModelReply } from "../providers/model-caller.js";
import { readSlice } from "../retrieval/slice.js";
import type { ShownAs } from "../store/history.js";
import type { OutputRecord } from "../store/output-store.js";
import {
  FOCUSED_READING_MAX_TOKENS,
  FOCUSED_READING_SYSTEM,
  type FocusedReading,
  focusedReadingPrompt,
  parseFocusedReading,
  shownRows,
  verifiedReading,
} from "../surfaces/focused-reading.js";
import { recordModelCall } from "./model-call-record.js";
import { placeholderText } from "./render-result.js";
import { compatibilityTexts, type SessionContext } from "./session-context.js";

/**
 * Runs the focused reading (surfaces/focused-reading.ts, SW-54) for an output just shown by
 * handle: one short request to the session's model with the task and the lines the handle
 * message shows. Its tokens count as the session's (a `model.call` event, the accounting), since
 * the session paid for them. A reading that fails, declines or points to a value its line does
 * not hold is dropped: the handle message goes out as it is.
 */
export async function focusedReadingOf(
  context: SessionContext,
  record: OutputRecord,
  shown: ShownAs,
): Promise<FocusedReading | undefined> {
  const task = context.state.taskText;
  if (!task || !applies(context, record, shown)) return undefined;
  const rows = shownRows(await placeholderText(context, record));
  if (rows.length === 0) return undefined;
  let reply: ModelReply;
  try {
    reply = await context.callModel({
      system: FOCUSED_READING_SYSTEM,
      messages: [{ role: "user", content: focusedReadingPrompt(task, rows) }],
      tools: [],
      maxOutputTokens: FOCUSED_READING_MAX_TOKENS,
      signal: context.signal,
    });
  } catch {
    // A pointer, not the message: a reading that cannot run leaves the message as it is.
    return undefined;
  }
  recordModelCall(context, reply, context.state.turn, "focused-reading");
  const reading = parseFocusedReading(reply.text);
  if (!reading) return undefined;
  const stored = await storedLine(context, record, reading.line);
  return verifiedReading(reading, rows, stored) ? reading : undefined;
}

/** The reading runs for a text output shown by the default surface's handle message, switch on. */
function applies(context: SessionContext, record: OutputRecord, shown: ShownAs): boolean {
  return (
    (shown === "handle" || shown === "ready") &&
    record.kind !== "binary" &&
    context.surface.name === "get_tool_output" &&
    !compatibilityTexts(context.settings) &&
    guided(context.settings, "taskSearch") &&
    guided(context.settings, "focusedReading")
  );
}

/**
 * One stored line, whole (undefined when it cannot be read). Not counted as a read of the
 * output: the model has not read it, and the report guards tell read outputs from unread ones.
 */
async function storedLine(
  context: SessionContext,
  record: OutputRecord,
  line: number,
): Promise<string | undefined> {
  try {
    const opened = await context.outputs.open(record.id, { sessionId: context.sessionId });
    try {
      const read = await readSlice(opened, { lineStart: line, lineEnd: line });
      return read.found ? read.text : undefined;
    } finally {
      await opened.close();
    }
  } catch {
    return undefined;
  }
}
