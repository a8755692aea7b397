/**
 * The context-window indicator: always visible once a session has reported its window use;
 * the current share in words and a bar, the thresholds spelled out ("warns at 75%, compacts at
 * 90%, hard limit 95%"), and a tooltip (hover or keyboard focus) that explains each.
 */
import type { ContextStatus } from "./api";
import { formatCount } from "./api";

const pct = (f: number) => `${Math.round(f * 1000) / 10}%`;

export function ContextIndicator(props: { status: ContextStatus | null }) {
  const s = props.status;
  if (!s)
    return (
      <section class="context-indicator empty" aria-label="Context window">
        Context window: no model call reported yet.
      </section>
    );
  const { warn, compact, hard } = s.thresholds;
  const width = Math.min(100, s.fraction * 100);
  return (
    <section class={`context-indicator level-${s.level}`} aria-label="Context window">
      <div class="context-line">
        <strong>Context window: {pct(s.fraction)} used</strong>
        <span>
          {" "}
          ({formatCount(s.usedTokens)} of {formatCount(s.windowTokens)} tokens, turn {s.turn},{" "}
          {s.model})
        </span>
        <span class="tooltip-host">
          <button
            type="button"
            class="info"
            aria-describedby="context-tooltip"
            aria-label="What these thresholds mean"
          >
            ?
          </button>
          <span role="tooltip" id="context-tooltip" class="tooltip">
            How full the model's context window was after the last model call (input plus reply, as
            the provider reported). At {pct(warn)} the session warns. At {pct(compact)} older whole
            turns are summarized into a separate record (compaction); the canonical history is never
            changed. {pct(hard)} is the hard limit: a request is never sent above it.
          </span>
        </span>
      </div>
      <div class="context-bar" aria-hidden="true">
        <div class="fill" style={{ width: `${width}%` }} />
        {[warn, compact, hard].map((t) => (
          <div key={t} class="mark" style={{ left: `${t * 100}%` }} />
        ))}
      </div>
      <meter
        class="sr-only"
        min={0}
        max={1}
        low={warn}
        high={compact}
        value={Math.min(1, s.fraction)}
      >
        {pct(s.fraction)}
      </meter>
      <p class="context-labels">{s.label}</p>
    </section>
  );
}
