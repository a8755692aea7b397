/**
 * The transcript, from the canonical history: the prompt, the assistant's words, and each tool
 * call with its result as the model saw it (inline, handle, ready, continuation, an async
 * answer), the stored record beside it, and one click to open the whole output in the viewer.
 */
import { useState } from "preact/hooks";
import {
  formatBytes,
  formatCount,
  type History,
  type OutputRecord,
  type Part,
  type ResultJson,
} from "./api";
import type { Pending } from "./session-view";

const SHOWN_LINES = 30;

function shownAs(result: ResultJson): string {
  const ref = result.ref;
  if (ref.kind === "output") return ref.shown;
  if (ref.kind === "retrieval") return ref.continuation ? "continuation read" : "read";
  if (ref.kind === "async") return `async (${ref.trigger} trigger)`;
  return ref.kind;
}

function Clipped(props: { text: string; label: string }) {
  const [all, setAll] = useState(false);
  const lines = props.text.split("\n");
  const long = lines.length > SHOWN_LINES;
  return (
    <div>
      <pre class="shown" title={props.label}>
        {all || !long ? props.text : lines.slice(0, SHOWN_LINES).join("\n")}
      </pre>
      {long ? (
        <button type="button" class="link" onClick={() => setAll(!all)}>
          {all ? "Show less" : `Show all ${formatCount(lines.length)} lines as the model saw them`}
        </button>
      ) : null}
    </div>
  );
}

function RecordLine(props: { record: OutputRecord; onOpen: (id: string) => void }) {
  const r = props.record;
  return (
    <p class="record">
      Stored whole:{" "}
      <button
        type="button"
        class="handle"
        onClick={() => props.onOpen(r.id)}
        title="Open the whole output in the viewer"
      >
        {r.id}
      </button>{" "}
      · {r.status} · {formatBytes(r.byteSize)} · {formatCount(r.lineCount)} lines · {r.kind ?? "?"}
      {r.sha256 ? <span class="sha"> · sha256 {r.sha256.slice(0, 12)}…</span> : null}
    </p>
  );
}

function ToolCall(props: {
  call: Extract<Part, { type: "tool-call" }>;
  result: ResultJson | undefined;
  child: string | null;
  onOpen: (id: string) => void;
}) {
  const { call, result, child } = props;
  const args =
    call.argsText.length > 300
      ? `${call.argsText.slice(0, 300)}… (${formatCount(call.argsText.length)} chars)`
      : call.argsText;
  return (
    <section class="tool-call" aria-label={`Tool call ${call.toolName}`}>
      <header>
        <span class="tool-name">→ {call.toolName}</span> <code class="args">{args}</code>{" "}
        <span class="call-id">{call.toolCallId}</span>
        {child ? (
          <a class="child" href={`#/sessions/${encodeURIComponent(child)}`}>
            sub-agent session {child}
          </a>
        ) : null}
      </header>
      {result ? (
        <div class="tool-result">
          <p class="result-head">
            Result as the model saw it:{" "}
            <span
              class={`badge shown-${result.ref.kind === "output" ? result.ref.shown : result.ref.kind}`}
            >
              {shownAs(result)}
            </span>
          </p>
          <Clipped
            text={result.shownText}
            label={`Result of ${call.toolName} as the model saw it`}
          />
          {result.output ? <RecordLine record={result.output} onOpen={props.onOpen} /> : null}
          {result.attachments.map((a) => (
            <RecordLine key={a.id} record={a} onOpen={props.onOpen} />
          ))}
        </div>
      ) : (
        <p class="running">Running…</p>
      )}
    </section>
  );
}

export function Transcript(props: {
  history: History;
  pending: Pending[];
  onOpenOutput: (id: string) => void;
}) {
  const results = new Map<string, ResultJson>();
  for (const m of props.history.messages)
    for (const p of m.parts) if (p.type === "tool-result") results.set(p.toolCallId, p.result);
  const { session } = props.history;
  const children = new Map(
    props.history.calls
      .filter((c) => c.childSessionId)
      .map((c) => [c.toolCallId, c.childSessionId as string]),
  );
  return (
    <section class="transcript" aria-label="Transcript" aria-live="polite">
      <h3>Transcript</h3>
      {props.history.messages
        .filter((m) => m.role !== "tool")
        .map((m) => (
          <div key={m.seq} class={`message role-${m.role}`}>
            <p class="message-head">
              {m.role === "user" ? "User" : "Assistant"} · turn {m.turn}
            </p>
            {m.parts.map((p, i) =>
              p.type === "text" ? (
                <p key={i} class="text">
                  {p.text}
                </p>
              ) : p.type === "tool-call" ? (
                <ToolCall
                  key={p.toolCallId}
                  call={p}
                  result={results.get(p.toolCallId)}
                  child={children.get(p.toolCallId) ?? null}
                  onOpen={props.onOpenOutput}
                />
              ) : null,
            )}
          </div>
        ))}
      {props.pending.map((p) => (
        <section
          key={p.toolCallId}
          class="tool-call pending"
          aria-label={`Tool call ${p.toolName} (live)`}
        >
          <header>
            <span class="tool-name">→ {p.toolName}</span>{" "}
            <span class="call-id">{p.toolCallId}</span> <span class="running">live</span>
          </header>
          {p.preview ? (
            <div class="tool-result">
              <p class="result-head">
                Preview (display only: {formatBytes(p.preview.bytesShown)} of{" "}
                {formatBytes(p.preview.totalBytes)}; the whole output is stored as{" "}
                <button
                  type="button"
                  class="handle"
                  onClick={() => props.onOpenOutput(p.preview?.outputId ?? "")}
                >
                  {p.preview.outputId}
                </button>
                )
              </p>
              <pre class="shown">{p.preview.text}</pre>
            </div>
          ) : (
            <p class="running">Running…</p>
          )}
        </section>
      ))}
      {session.finalReport ? (
        <div class="message final-report">
          <p class="message-head">Final report</p>
          <p class="text">{session.finalReport}</p>
        </div>
      ) : null}
      {session.error ? <p class="error">{session.error}</p> : null}
    </section>
  );
}
