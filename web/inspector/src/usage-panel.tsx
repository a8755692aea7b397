/** Usage and cost per model, and the background tools (running, ready, failed). */
import { type Background, formatBytes, formatCount, type Usage } from "./api";

const cost = (c: number | null) => (c === null ? "no pricing" : `$${c.toFixed(c < 0.01 ? 4 : 2)}`);

export function UsagePanel(props: { usage: Usage | null; live?: boolean }) {
  const u = props.usage;
  const rows = Object.entries(u?.byModel ?? {});
  return (
    <section class="panel" aria-labelledby="usage-title">
      <h3 id="usage-title">
        Usage and cost per model
        {props.live ? <span class="hint"> (so far, live)</span> : null}
      </h3>
      {rows.length === 0 ? (
        <p class="empty">No model call yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Calls</th>
              <th scope="col">Input tokens</th>
              <th scope="col">Output tokens</th>
              <th scope="col">Cost</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([model, m]) => (
              <tr key={model}>
                <td>
                  <code>{model}</code>
                </td>
                <td>{formatCount(m.calls)}</td>
                <td>{formatCount(m.inputTokens)}</td>
                <td>{formatCount(m.outputTokens)}</td>
                <td>{cost(m.costUsd)}</td>
              </tr>
            ))}
          </tbody>
          {u ? (
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <td>{formatCount(u.total.modelCalls)}</td>
                <td>{formatCount(u.total.inputTokens)}</td>
                <td>{formatCount(u.total.outputTokens)}</td>
                <td>{cost(u.total.costUsd)}</td>
              </tr>
            </tfoot>
          ) : null}
        </table>
      )}
    </section>
  );
}

export function BackgroundPanel(props: {
  background: Background[];
  onOpenOutput: (id: string) => void;
}) {
  return (
    <section class="panel" aria-labelledby="background-title">
      <h3 id="background-title">Background tools</h3>
      {props.background.length === 0 ? (
        <p class="empty">None in this session.</p>
      ) : (
        <ul class="background-list">
          {props.background.map((b) => (
            <li key={b.toolCallId}>
              <span class={`status status-${b.status}`}>{b.status}</span> <code>{b.toolName}</code>{" "}
              {b.outputId && b.status === "ready" ? (
                <button
                  type="button"
                  class="link"
                  onClick={() => props.onOpenOutput(b.outputId as string)}
                >
                  {b.outputId} · {formatBytes(b.byteSize)}
                </button>
              ) : (
                <code>{b.outputId}</code>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
