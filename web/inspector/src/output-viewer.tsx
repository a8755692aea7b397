/**
 * The output viewer: reads one stored output page by page (a slice of lines at a time, never
 * the whole output), with line numbers; grep jumps to a match's line; JSON outputs have an
 * outline. Escape closes it; "/" focuses the search.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, formatBytes, formatCount, type OutputRecord } from "./api";

const PAGE_LINES = 200;
const PAGE_CHARS = 256 * 1024;

interface SliceResult {
  found: boolean;
  text: string;
  provenance: {
    lineStart: number;
    lineEnd: number;
    totalLines: number;
    charStart: number;
    charEnd: number;
    totalChars: number;
  };
}

interface GrepMatch {
  line: number;
  text: string;
  column: number;
}

interface Page {
  firstLine: number;
  lines: string[];
  /** Set when paging by characters (lines too long to page by line). */
  chars?: { start: number; end: number; total: number };
}

export function OutputViewer(props: { outputId: string; onClose: () => void }) {
  const [record, setRecord] = useState<OutputRecord | null>(null);
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pattern, setPattern] = useState("");
  const [matches, setMatches] = useState<GrepMatch[] | null>(null);
  const [current, setCurrent] = useState(-1);
  const [highlight, setHighlight] = useState<number | null>(null);
  const [outline, setOutline] = useState<string | null>(null);
  const [goto, setGoto] = useState("");
  const dialog = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const close = useRef<HTMLButtonElement>(null);

  const loadLines = async (firstLine: number) => {
    try {
      const last = Math.max(firstLine, firstLine + PAGE_LINES - 1);
      const r = await api.content<SliceResult>(props.outputId, {
        mode: "slice",
        lineStart: firstLine,
        lineEnd: last,
        maxChars: PAGE_CHARS,
      });
      const lines = r.text.replace(/\n$/, "").split("\n");
      setPage({ firstLine: r.provenance.lineStart, lines });
      setError(null);
    } catch (e) {
      if (e instanceof ApiError && e.code === "RANGE_TOO_LARGE") return loadChars(0);
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const loadChars = async (start: number) => {
    try {
      const r = await api.content<SliceResult>(props.outputId, {
        mode: "slice",
        start,
        length: 64 * 1024,
      });
      setPage({
        firstLine: r.provenance.lineStart,
        lines: r.text.split("\n"),
        chars: {
          start: r.provenance.charStart,
          end: r.provenance.charEnd,
          total: r.provenance.totalChars,
        },
      });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  useEffect(() => {
    close.current?.focus();
    void api.output(props.outputId).then(
      (r) => {
        setRecord(r);
        if (r.status === "ready" && r.kind !== "binary") void loadLines(1);
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") props.onClose();
      if (e.key === "/" && document.activeElement?.tagName !== "INPUT") {
        e.preventDefault();
        search.current?.focus();
      }
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [props.outputId]);

  useEffect(() => {
    if (highlight !== null)
      document.getElementById(`L${highlight}`)?.scrollIntoView({ block: "center" });
  }, [page, highlight]);

  const jump = async (line: number) => {
    setHighlight(line);
    const first = Math.max(1, line - Math.floor(PAGE_LINES / 4));
    if (!page || page.chars || line < page.firstLine || line >= page.firstLine + page.lines.length)
      await loadLines(first);
  };

  const runGrep = async () => {
    if (!pattern) return;
    if (matches && matches.length > 0) {
      const next = (current + 1) % matches.length;
      setCurrent(next);
      return jump(matches[next]!.line);
    }
    try {
      const r = await api.content<{ matches: GrepMatch[] }>(props.outputId, {
        mode: "grep",
        pattern,
        maxMatches: 500,
      });
      setMatches(r.matches);
      setCurrent(r.matches.length > 0 ? 0 : -1);
      if (r.matches[0]) await jump(r.matches[0].line);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const total = record?.lineCount ?? 0;
  return (
    <div class="viewer-backdrop">
      <div
        class="viewer"
        role="dialog"
        aria-modal="true"
        aria-labelledby="viewer-title"
        ref={dialog}
      >
        <header class="viewer-head">
          <h2 id="viewer-title">
            Output <code>{props.outputId}</code>
          </h2>
          <button
            type="button"
            ref={close}
            onClick={props.onClose}
            aria-label="Close the output viewer (Escape)"
          >
            Close ✕
          </button>
        </header>
        {record ? (
          <p class="record">
            {record.toolName} · {record.status} · {formatBytes(record.byteSize)} ·{" "}
            {formatCount(record.lineCount)} lines · {record.kind} · sha256{" "}
            <code>{record.sha256}</code> ·{" "}
            <a href={`/v1/outputs/${record.id}/raw`} target="_blank" rel="noreferrer">
              raw
            </a>
          </p>
        ) : null}
        {error ? (
          <p role="alert" class="error">
            {error}
          </p>
        ) : null}
        <div class="viewer-tools">
          <form
            class="grep"
            onSubmit={(e) => {
              e.preventDefault();
              void runGrep();
            }}
          >
            <label for="grep-input">Grep</label>
            <input
              id="grep-input"
              ref={search}
              value={pattern}
              placeholder="text to find (press / )"
              onInput={(e) => {
                setPattern((e.currentTarget as HTMLInputElement).value);
                setMatches(null);
              }}
            />
            <button type="submit">{matches && matches.length > 0 ? "Next match" : "Find"}</button>
            <span class="match-count" aria-live="polite">
              {matches === null
                ? ""
                : matches.length === 0
                  ? "no match"
                  : `match ${current + 1} of ${matches.length}${matches.length === 500 ? "+" : ""} · line ${matches[current]?.line}`}
            </span>
          </form>
          <form
            class="goto"
            onSubmit={(e) => {
              e.preventDefault();
              const n = Number(goto);
              if (Number.isInteger(n) && n >= 1) void jump(n);
            }}
          >
            <label for="goto-input">Line</label>
            <input
              id="goto-input"
              inputMode="numeric"
              size={8}
              value={goto}
              onInput={(e) => setGoto((e.currentTarget as HTMLInputElement).value)}
            />
            <button type="submit">Go</button>
          </form>
          {record && (record.kind === "json" || record.kind === "ndjson") ? (
            <button
              type="button"
              onClick={() =>
                outline !== null
                  ? setOutline(null)
                  : void api
                      .content<{ outline: string }>(props.outputId, { mode: "json", outline: true })
                      .then(
                        (r) => setOutline(r.outline),
                        (e: unknown) => setError(String(e)),
                      )
              }
            >
              {outline !== null ? "Hide JSON outline" : "JSON outline"}
            </button>
          ) : null}
        </div>
        {outline !== null ? (
          <pre class="outline" title="JSON outline">
            {outline}
          </pre>
        ) : null}
        {record?.kind === "binary" ? <p>Binary output: open it raw.</p> : null}
        {page ? (
          <>
            <nav class="pager" aria-label="Pages">
              <button
                type="button"
                disabled={page.chars ? page.chars.start === 0 : page.firstLine <= 1}
                onClick={() =>
                  page.chars
                    ? loadChars(Math.max(0, page.chars.start - 64 * 1024))
                    : loadLines(Math.max(1, page.firstLine - PAGE_LINES))
                }
              >
                ← Previous
              </button>
              <span>
                {page.chars
                  ? `characters ${formatCount(page.chars.start)}–${formatCount(page.chars.end)} of ${formatCount(page.chars.total)}`
                  : `lines ${formatCount(page.firstLine)}–${formatCount(page.firstLine + page.lines.length - 1)} of ${formatCount(total)}`}
              </span>
              <button
                type="button"
                disabled={
                  page.chars
                    ? page.chars.end >= page.chars.total
                    : page.firstLine + page.lines.length > total
                }
                onClick={() =>
                  page.chars
                    ? loadChars(page.chars.end)
                    : loadLines(page.firstLine + page.lines.length)
                }
              >
                Next →
              </button>
            </nav>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take keyboard focus to scroll with the keys */}
            <section class="code" aria-label="Output lines" tabIndex={0}>
              {page.lines.map((line, i) => {
                const n = page.firstLine + i;
                return (
                  <div key={n} id={`L${n}`} class={n === highlight ? "line hit" : "line"}>
                    <span class="ln" aria-hidden="true">
                      {page.chars ? "" : n}
                    </span>
                    <span class="src">{line}</span>
                  </div>
                );
              })}
            </section>
          </>
        ) : null}
      </div>
    </div>
  );
}
