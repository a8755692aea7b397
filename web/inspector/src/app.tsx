/** The inspector: a session list beside the selected session (live), and the output viewer. */
import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError, api, type Session, setToken } from "./api";
import { OutputViewer } from "./output-viewer";
import { SessionList } from "./session-list";
import { SessionView } from "./session-view";

function selectedFromHash(): string | null {
  const match = /^#\/sessions\/([^/]+)$/.exec(location.hash);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

export function App() {
  const [sessions, setSessions] = useState<Session[]>([]);
  const [selected, setSelected] = useState<string | null>(selectedFromHash());
  const [viewing, setViewing] = useState<string | null>(null);
  const [needsToken, setNeedsToken] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const { sessions: list } = await api.sessions();
      setSessions(list);
      setNeedsToken(false);
      setError(null);
      if (!selectedFromHash() && list[0]) setSelected(list[0].id);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) setNeedsToken(true);
      else setError(e instanceof Error ? e.message : String(e));
    }
  }, []);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), 5000);
    const onHash = () => setSelected(selectedFromHash());
    addEventListener("hashchange", onHash);
    return () => {
      clearInterval(timer);
      removeEventListener("hashchange", onHash);
    };
  }, [load]);

  const select = (id: string) => {
    location.hash = `#/sessions/${encodeURIComponent(id)}`;
    setSelected(id);
  };

  if (needsToken) {
    return (
      <main class="token-gate">
        <h1>spillway inspector</h1>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const input = (e.currentTarget as HTMLFormElement).elements.namedItem(
              "token",
            ) as HTMLInputElement;
            setToken(input.value.trim());
            void load();
          }}
        >
          <label for="token">This server needs a bearer token</label>
          <input id="token" name="token" type="password" autocomplete="off" />
          <button type="submit">Open</button>
          <p class="hint">
            The token stays in this tab (session storage) and is sent as an Authorization header.
          </p>
        </form>
      </main>
    );
  }

  return (
    <div class="layout">
      <header class="topbar">
        <h1>spillway inspector</h1>
        <span class="hint">
          Every tool result stored whole · <a href="/openapi.json">API</a>
        </span>
      </header>
      <SessionList sessions={sessions} selected={selected} onSelect={select} />
      <main class="content" id="main">
        {error ? (
          <p role="alert" class="error">
            {error}
          </p>
        ) : null}
        {selected ? (
          <SessionView
            key={selected}
            sessionId={selected}
            onOpenOutput={setViewing}
            onChange={() => void load()}
          />
        ) : (
          <p class="empty">No session yet. Start one with POST /v1/sessions or `spillway run`.</p>
        )}
      </main>
      {viewing ? <OutputViewer outputId={viewing} onClose={() => setViewing(null)} /> : null}
    </div>
  );
}
