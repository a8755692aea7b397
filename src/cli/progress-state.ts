/** What `spillway run` progress remembers between events: sessions and extractions under way. */

export interface SessionInfo {
  readonly agent: string;
  readonly maxTurns: number;
  readonly depth: number;
  readonly parentSessionId: string | null;
  turn: number;
  ended: boolean;
}

/** An extraction under way (between its `extraction.start` and `extraction.end`). */
export interface ExtractionInfo {
  readonly sessionId: string;
  readonly outputId: string;
  readonly strategy: string;
  readonly chunks: number;
  /** Answers received per map chunk (1-based): more than one means the chunk was asked again. */
  readonly mapAnswers: Map<number, number>;
  reduceAnswers: number;
}

/** Where an extraction's events meet: its session and the tool call that asked (or its output). */
export function extractionKey(event: {
  readonly sessionId: string;
  readonly toolCallId?: string;
  readonly outputId: string;
}): string {
  return `${event.sessionId}/${event.toolCallId ?? `(${event.outputId})`}`;
}

/** "extracting out_x full-chunked 4/10 chunks", "… reducing", "… read-grep agent turn 2/8". */
export function extractionStatus(
  sessions: ReadonlyMap<string, SessionInfo>,
  extraction: ExtractionInfo,
): string {
  const head = `extracting ${extraction.outputId}`;
  if (extraction.strategy === "full-chunked") {
    const done = extraction.mapAnswers.size;
    return done >= extraction.chunks && extraction.chunks > 1
      ? `${head} full-chunked reducing`
      : `${head} full-chunked ${done}/${extraction.chunks} chunks`;
  }
  if (extraction.strategy === "read-grep") {
    // Its agent runs as a linked session of the session that asked (the newest such, if several).
    const agent = [...sessions.values()]
      .filter(
        (s) => s.agent === "read-grep" && s.parentSessionId === extraction.sessionId && !s.ended,
      )
      .at(-1);
    return `${head} read-grep agent${agent && agent.turn > 0 ? ` turn ${agent.turn}/${agent.maxTurns}` : ""}`;
  }
  return `${head} ${extraction.strategy}`;
}
