/**
 * One session: its header, the context-window indicator, usage and cost per model, background
 * tools, and the transcript. Live over SSE: each event is shown at once (tool calls under way,
 * result previews), and the canonical history is fetched again so the transcript always shows
 * the results as stored and as the model saw them.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { api, type ContextStatus, type History, type Usage } from "./api";
import { ContextIndicator } from "./context-indicator";
import { follow, type LiveEvent } from "./live";
import { Transcript } from "./transcript";
import { BackgroundPanel, UsagePanel } from "./usage-panel";

export interface Pending {
  toolCallId: string;
  toolName: string;
  preview?: { text: string; totalBytes: number; bytesShown: number; outputId: string };
}

/** Usage so far, from the model.call events seen live (the run's report replaces it at the end). */
function addModelCall(usage: Usage | null, d: Record<string, unknown>): Usage {
  const model = String(d.model);
  const input = Number(d.inputTokens) || 0;
  const output = Number(d.outputTokens) || 0;
  const cost = typeof d.costUsd === "number" ? d.costUsd : null;
  const add = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);
  const base: Usage = usage ?? {
    total: { modelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, toolCalls: 0 },
    byModel: {},
  };
  const entry = base.byModel[model] ?? { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  return {
    total: {
      ...base.total,
      modelCalls: base.total.modelCalls + 1,
      inputTokens: base.total.inputTokens + input,
      outputTokens: base.total.outputTokens + output,
      costUsd: add(base.total.costUsd, cost),
    },
    byModel: {
      ...base.byModel,
      [model]: {
        calls: entry.calls + 1,
        inputTokens: entry.inputTokens + input,
        outputTokens: entry.outputTokens + output,
        costUsd: add(entry.costUsd, cost),
      },
    },
  };
}

export function SessionView(props: {
  sessionId: string;
  onOpenOutput: (id: string) => void;
  onChange: () => void;
}) {
  const [history, setHistory] = useState<History | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [liveContext, setLiveContext] = useState<ContextStatus | null>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const [lastEvent, setLastEvent] = useState<string | null>(null);
  const [liveUsage, setLiveUsage] = useState<Usage | null>(null);
  const reload = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    const load = async () => {
      try {
        const next = await api.history(props.sessionId);
        setHistory(next);
        setError(null);
        const known = new Set(
          next.messages.flatMap((m) => m.parts.map((p) => ("toolCallId" in p ? p.toolCallId : ""))),
        );
        setPending((list) => list.filter((p) => !known.has(p.toolCallId)));
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
    };
    const schedule = () => {
      if (reload.current) clearTimeout(reload.current);
      reload.current = setTimeout(() => void load(), 150);
    };
    void load();
    const onEvent = (event: LiveEvent) => {
      const d = event.data;
      setLastEvent(`${event.type}${typeof d.toolName === "string" ? ` ${d.toolName}` : ""}`);
      if (event.type === "context") setLiveContext(d as unknown as ContextStatus);
      if (event.type === "model.call") setLiveUsage((u) => addModelCall(u, d));
      if (event.type === "tool.start" && d.sessionId === props.sessionId)
        setPending((list) => [
          ...list,
          { toolCallId: String(d.toolCallId), toolName: String(d.toolName) },
        ]);
      if (event.type === "tool.end" && d.result) {
        const r = d.result as {
          text: string;
          totalBytes: number;
          bytesShown: number;
          outputId: string;
        };
        setPending((list) =>
          list.map((p) => (p.toolCallId === d.toolCallId ? { ...p, preview: r } : p)),
        );
      }
      if (event.type === "final" || event.type === "session.start") props.onChange();
      schedule();
    };
    void follow(props.sessionId, onEvent, abort.signal).then(() => {
      if (!abort.signal.aborted) schedule();
    });
    return () => {
      abort.abort();
      if (reload.current) clearTimeout(reload.current);
    };
  }, [props.sessionId]);

  if (error && !history)
    return (
      <p role="alert" class="error">
        {error}
      </p>
    );
  if (!history) return <p class="empty">Loading…</p>;
  const { session } = history;
  const context = liveContext ?? history.context.at(-1) ?? null;
  return (
    <article class="session-view" aria-labelledby="session-title">
      <header class="session-header">
        <h2 id="session-title">
          {session.agentName} <code>{session.id}</code>
        </h2>
        <p>
          <span class={`status status-${session.status}`}>
            {session.live ? "running (live)" : session.status}
          </span>{" "}
          · {session.turns} turn{session.turns === 1 ? "" : "s"}
          {lastEvent && session.live ? (
            <span class="live-dot" aria-live="polite">
              {" "}
              · last event: {lastEvent}
            </span>
          ) : null}
        </p>
      </header>
      <ContextIndicator status={context} />
      <div class="panels">
        <UsagePanel
          usage={session.usage ?? liveUsage}
          live={!session.usage && liveUsage !== null}
        />
        <BackgroundPanel background={history.background} onOpenOutput={props.onOpenOutput} />
      </div>
      <Transcript history={history} pending={pending} onOpenOutput={props.onOpenOutput} />
    </article>
  );
}
