/** The list of sessions: newest first, arrow keys move, Enter opens. */
import type { Session } from "./api";

const time = (ms: number) => new Date(ms).toLocaleString();

export function SessionList(props: {
  sessions: Session[];
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const move = (e: KeyboardEvent, index: number) => {
    const next = e.key === "ArrowDown" ? index + 1 : e.key === "ArrowUp" ? index - 1 : -1;
    const target = props.sessions[next];
    if (target) {
      e.preventDefault();
      props.onSelect(target.id);
      document.getElementById(`session-${target.id}`)?.focus();
    }
  };
  return (
    <nav class="sidebar" aria-label="Sessions">
      <h2>Sessions ({props.sessions.length})</h2>
      <ul class="session-list">
        {props.sessions.map((s, i) => (
          <li key={s.id}>
            <button
              type="button"
              id={`session-${s.id}`}
              class={s.id === props.selected ? "session selected" : "session"}
              aria-current={s.id === props.selected ? "true" : undefined}
              onClick={() => props.onSelect(s.id)}
              onKeyDown={(e) => move(e, i)}
            >
              <span class={`status status-${s.status}`}>{s.live ? "live" : s.status}</span>
              <span class="agent">{s.agentName}</span>
              <span class="prompt">{s.prompt.slice(0, 90)}</span>
              <span class="meta">
                {time(s.createdAt)} · {s.turns} turn{s.turns === 1 ? "" : "s"}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
