import { guided } from "../config/guidance.js";
import { headAndTail } from "../retrieval/head-and-tail.js";
import { readOutput } from "../retrieval/read-output.js";
import type { ToolResultRef } from "../store/history.js";
import type { OutputRecord } from "../store/output-store.js";
import {
  asyncReadyText,
  asyncRunningGuidedText,
  asyncRunningText,
} from "../surfaces/async-texts.js";
import { continuationMarker } from "../surfaces/get-continuation.js";
import type { HandleGuidance } from "../surfaces/handle-message.js";
import { compatibilityTexts, type SessionContext } from "./session-context.js";

/** What rendering reads of a session (a viewer such as `sessions show` can build just this). */
export type RenderContext = Pick<
  SessionContext,
  "sessionId" | "outputs" | "surface" | "settings" | "state"
>;

/**
 * Renders a canonical tool result into the text a model is sent. Rendering is part of the
 * projection: the canonical history holds references and numbers, and any shortening here
 * names the handle that holds the whole output.
 */

const number = (n: number | null) => (n ?? 0).toLocaleString("en-US");

async function outputRecord(context: RenderContext, outputId: string): Promise<OutputRecord> {
  return context.outputs.get(outputId, { sessionId: context.sessionId });
}

async function cached(
  context: RenderContext,
  key: string,
  make: () => Promise<string>,
): Promise<string> {
  const hit = context.state.rendered.get(key);
  if (hit !== undefined) return hit;
  const text = await make();
  context.state.rendered.set(key, text);
  return text;
}

/** What the session's guidance switches change in the handle message. */
function handleGuidance(settings: RenderContext["settings"]): HandleGuidance {
  return {
    taskRecord: guided(settings, "taskRecord"),
    taskFocus: guided(settings, "taskFocus"),
    thresholdLines: guided(settings, "thresholdLines"),
    formLines: guided(settings, "formLines"),
  };
}

/** The surface's placeholder text for an oversized output (marker included for continuations). */
export function placeholderText(context: RenderContext, record: OutputRecord): Promise<string> {
  return cached(context, `placeholder:${record.id}`, async () => {
    const placeholder = await context.surface.placeholder(record, {
      toolCallId: record.toolCallId ?? "",
      outputs: context.outputs,
      scope: { sessionId: context.sessionId },
      ...(context.state.taskText && guided(context.settings, "taskSearch")
        ? { taskText: context.state.taskText }
        : {}),
      guidance: handleGuidance(context.settings),
      ...(context.state.liftedArguments.has(record.id)
        ? { liftedArguments: context.state.liftedArguments.get(record.id)! }
        : {}),
    });
    if (!placeholder.continuation) return placeholder.text;
    const { toolCallId, shown, total } = placeholder.continuation;
    return `${placeholder.text}\n${continuationMarker(toolCallId, shown, total, true)}`;
  });
}

/**
 * What an output over asyncTokenThreshold shows (the size trigger): the surface's handle message
 * by default, since its size, kind, synopsis and exact calls got a real model to read the output
 * where the terse compatibility ready text did not (SW-23); that text exactly with
 * `asyncReadyMessage: ready-menu`.
 */
export function readyText(context: RenderContext, record: OutputRecord): Promise<string> {
  if (compatibilityTexts(context.settings))
    return Promise.resolve(asyncReadyText(record.id, record.toolName, record.tokenEstimate ?? 0));
  return placeholderText(context, record);
}

/** Legacy truncation (toolOutput.enabled: false, D0-25): head and tail within the byte cap, marked. */
async function legacyTruncated(context: RenderContext, record: OutputRecord): Promise<string> {
  // Bytes to characters at 3 bytes each: the cap holds, whatever the script.
  const chars = Math.max(2, Math.floor(context.settings.toolResponseMaxBytes / 3));
  const opened = await context.outputs.open(record.id, { sessionId: context.sessionId });
  try {
    return await headAndTail(opened, chars);
  } finally {
    await opened.close();
  }
}

/** An output whole, as the model is shown it inline (a binary one by a line naming it); a read. */
export async function inlineText(context: RenderContext, record: OutputRecord): Promise<string> {
  if (record.kind === "binary") {
    return `[binary output stored as ${record.id}: ${number(record.byteSize)} bytes${record.mediaType ? `, ${record.mediaType}` : ""}]`;
  }
  const raw = await readOutput(
    context.outputs,
    record.id,
    { sessionId: context.sessionId },
    {
      mode: "raw",
      maxChars: Math.max(1, record.charCount ?? 0),
    },
  );
  return raw.text;
}

/** Renders one canonical result. */
export async function renderResult(context: RenderContext, ref: ToolResultRef): Promise<string> {
  switch (ref.kind) {
    case "output": {
      const record = await outputRecord(context, ref.outputId);
      let text: string;
      if (ref.shown === "ready") text = await readyText(context, record);
      else if (ref.shown === "inline")
        text = await cached(context, `inline:${record.id}`, () => inlineText(context, record));
      else if (ref.shown === "truncated")
        text = await cached(context, `legacy:${record.id}`, () => legacyTruncated(context, record));
      else text = await placeholderText(context, record);
      const attachments = (ref.attachments ?? [])
        .map((id) => `\n[binary attachment stored as ${id}]`)
        .join("");
      return `${ref.isError ? "[the tool reported an error]\n" : ""}${text}${attachments}`;
    }
    case "retrieval": {
      if (!ref.continuation) return ref.text;
      const { toolCallId, shown, total } = ref.continuation;
      return `${ref.text}\n${continuationMarker(toolCallId, shown, total, false)}`;
    }
    case "async": {
      const record = await outputRecord(context, ref.outputId);
      return compatibilityTexts(context.settings)
        ? asyncRunningText(record.id, record.toolName)
        : asyncRunningGuidedText(record.id, record.toolName);
    }
    case "error":
      return `Error ${ref.code}: ${ref.message}`;
    case "note":
      return ref.text;
    case "batch": {
      const parts: string[] = [];
      for (const [i, item] of ref.items.entries()) {
        parts.push(
          `### ${i + 1}. ${item.toolName} ${item.argsText}\n${await renderResult(context, item.ref)}`,
        );
      }
      return parts.join("\n\n");
    }
  }
}

/** How the model reads a stored output again, by surface (one call, ready to copy). */
function rereadCall(context: RenderContext, record: OutputRecord): string {
  const name = context.surface.name;
  if (name === "tool_output") return `tool_output(handle="${record.id}", extract="what you need")`;
  if (name === "get_continuation")
    return record.toolCallId
      ? `get_continuation(tool_call_id="${record.toolCallId}", offset=0)`
      : `the stored output ${record.id}`;
  if (name === "read-grep") return `Read or Grep on ${record.id}`;
  return `get_tool_output(id="${record.id}", mode="slice"|"grep"|"page")`;
}

/**
 * The handle form of an inline result, for shortening an over-full context at send time: one
 * line naming the output, its size and the call that reads it again.
 */
export async function shortenedResult(
  context: RenderContext,
  ref: ToolResultRef,
): Promise<string | undefined> {
  if (ref.kind === "output" && ref.shown === "inline") {
    const record = await outputRecord(context, ref.outputId);
    const lines = record.lineCount ?? 0;
    return (
      `[shown earlier; removed from this context to make room] The ${ref.isError ? "error " : ""}output of ${record.toolName} is stored whole as ${record.id} ` +
      `(${number(record.byteSize)} bytes, ${number(lines)} line${lines === 1 ? "" : "s"}, ~${number(record.tokenEstimate)} tokens); read it again with ${rereadCall(context, record)}.`
    );
  }
  if (ref.kind === "retrieval" && ref.outputId && !ref.isError) {
    return `[an earlier read of ${ref.outputId}; removed from this context to make room: read it again with the same call if you need it]`;
  }
  return undefined;
}
