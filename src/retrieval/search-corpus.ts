/**
 * What a search keeps while it reads: one row per matching document (a line, or a window of a
 * very long line) with its term counts, the document frequency of every term, and the totals
 * BM25 needs. Rows live in flat typed arrays, so a million of them take tens of megabytes.
 *
 * Scoring is BM25 ([SW-14](../../docs/architecture.md#decision-log)) with k1 = 1.2, b = 0.75 and
 * idf = ln(1 + (N - df + 0.5) / (df + 0.5)): N documents, df of them holding the term. A
 * document's length is its number of characters, and the average length is the searched
 * characters over the searched documents, which the store already knows: no pass to count words.
 * The `coverage` ranking is BM25 with k1 = 0: a document scores the idf of each term it holds,
 * once, whatever its length, so documents holding the same terms tie and keep the order of the
 * text ([SW-40](../../docs/architecture.md#decision-log)).
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/**
 * How documents are ranked: `bm25`, or `coverage` (the idf of each query term a document holds,
 * once: term repetitions and document length do not count).
 */
export const SEARCH_RANKINGS = ["bm25", "coverage"] as const;
export type SearchRanking = (typeof SEARCH_RANKINGS)[number];

/** How a corpus ranks: its ranking, and whether equal documents are taken from the end. */
export interface RankingOrder {
  readonly ranking: SearchRanking;
  /** Equal scores from the end of the text (the latest first) instead of its start. */
  readonly latestFirst: boolean;
}

const BM25_ORDER: RankingOrder = { ranking: "bm25", latestFirst: false };

/** Where a document starts: which output (its index in the search), its first byte. */
export interface DocumentAt {
  readonly source: number;
  readonly byteStart: number;
  /** True when the document is a window of a line too long to search whole. */
  readonly window: boolean;
}

/** Where a row's document is, its length in characters and where its first term is. */
export interface RowPlace extends DocumentAt {
  readonly chars: number;
  /** Character offset, from the document's start, of the first term found (for the excerpt). */
  readonly focus: number;
}

/** A scored row, ready to be described. */
export interface RankedRow extends RowPlace {
  readonly score: number;
  /** Indexes (into the query's terms) of the terms the document holds. */
  readonly termIndexes: number[];
}

const INITIAL_ROWS = 1024;

export class SearchCorpus {
  /** Documents whose text was searched (lines, plus extra windows of long lines). */
  documents = 0;
  /** Characters of the searched documents. */
  chars = 0;
  /** Rows dropped when the kept rows reached `maxRows` (their lines did match). */
  prunedRows = 0;
  /** Documents that held at least one term. */
  matching = 0;
  readonly documentFrequency: Float64Array;
  private count = 0;
  private capacity = INITIAL_ROWS;
  private sources = new Uint32Array(INITIAL_ROWS);
  private starts = new Float64Array(INITIAL_ROWS);
  private lengths = new Float64Array(INITIAL_ROWS);
  private focuses = new Float64Array(INITIAL_ROWS);
  private windows = new Uint8Array(INITIAL_ROWS);
  private counts: Uint16Array;

  constructor(
    readonly terms: readonly string[],
    readonly maxRows: number,
    readonly order: RankingOrder = BM25_ORDER,
  ) {
    this.documentFrequency = new Float64Array(terms.length);
    this.counts = new Uint16Array(INITIAL_ROWS * terms.length);
  }

  get rows(): number {
    return this.count;
  }

  /**
   * Adds a document holding at least one term, at `place` (with its length in characters and
   * where its first term is); `termCounts[i]` counts `terms[i]` in it.
   */
  add(place: DocumentAt, chars: number, focus: number, termCounts: ArrayLike<number>): void {
    this.matching++;
    const width = this.terms.length;
    for (let t = 0; t < width; t++) if (termCounts[t]! > 0) this.documentFrequency[t]!++;
    if (this.count === this.maxRows) this.prune();
    if (this.count === this.capacity) this.grow();
    const row = this.count++;
    this.sources[row] = place.source;
    this.starts[row] = place.byteStart;
    this.lengths[row] = chars;
    this.focuses[row] = focus;
    this.windows[row] = place.window ? 1 : 0;
    for (let t = 0; t < width; t++) this.counts[row * width + t] = Math.min(65_535, termCounts[t]!);
  }

  /**
   * Counts a table's column names in its rows: every matching row of output `source` (a CSV
   * table, its header the line at byte 0) holds the terms its header holds, once each, as a
   * reader takes a row with the names of its columns ("shipment id lost" finds the rows whose
   * status is lost, not the header that names `shipment_id`). Rows that hold no term of the
   * query stay out; with no matching header nothing changes. The same rule ranks a table row
   * in the task search ([SW-32](../../docs/architecture.md#decision-log)).
   */
  nameColumns(source: number): void {
    const width = this.terms.length;
    let header = -1;
    for (let row = 0; row < this.count && header === -1; row++)
      if (this.sources[row] === source && this.starts[row] === 0 && this.windows[row] === 0)
        header = row;
    if (header === -1) return;
    for (let row = 0; row < this.count; row++) {
      if (row === header || this.sources[row] !== source || this.windows[row] === 1) continue;
      for (let t = 0; t < width; t++) {
        if (this.counts[header * width + t] === 0 || this.counts[row * width + t] !== 0) continue;
        this.counts[row * width + t] = 1;
        this.documentFrequency[t]!++;
      }
    }
  }

  /** The inverse document frequency of each term over the documents searched so far. */
  weights(): number[] {
    const n = Math.max(this.documents, 1);
    return Array.from(this.documentFrequency, (df) =>
      Math.log(1 + (Math.max(0, n - df) + 0.5) / (df + 0.5)),
    );
  }

  /** The score of every row, in row order. */
  private scores(): Float64Array {
    const weights = this.weights();
    const averageChars = Math.max(this.chars / Math.max(this.documents, 1), 1);
    const width = this.terms.length;
    const scores = new Float64Array(this.count);
    const coverage = this.order.ranking === "coverage";
    for (let row = 0; row < this.count; row++) {
      const norm = BM25_K1 * (1 - BM25_B + (BM25_B * this.lengths[row]!) / averageChars);
      let score = 0;
      for (let t = 0; t < width; t++) {
        const tf = this.counts[row * width + t]!;
        if (tf === 0) continue;
        score += coverage ? weights[t]! : (weights[t]! * tf * (BM25_K1 + 1)) / (tf + norm);
      }
      scores[row] = score;
    }
    return scores;
  }

  /**
   * The best `n` rows, in row order: those scoring above the n-th best score, then those
   * equal to it nearest the start of the text, or its end with `latestFirst` (rows are kept in
   * the order of the text, output by output).
   */
  private best(scores: Float64Array, n: number): number[] {
    if (n >= this.count) return Array.from({ length: this.count }, (_, row) => row);
    const threshold = scores.slice().sort()[this.count - n]!;
    let above = 0;
    for (const score of scores) if (score > threshold) above++;
    let ties = n - above;
    const taken = new Uint8Array(this.count);
    const latestFirst = this.order.latestFirst;
    for (let i = 0; i < this.count; i++) {
      const row = latestFirst ? this.count - 1 - i : i;
      const score = scores[row]!;
      if (score > threshold || (score === threshold && ties-- > 0)) taken[row] = 1;
    }
    const rows: number[] = [];
    for (let row = 0; row < this.count; row++) if (taken[row] === 1) rows.push(row);
    return rows;
  }

  /** The best `n` rows, best first; equal scores in the order of the text, or from its end. */
  top(n: number): RankedRow[] {
    const scores = this.scores();
    const direction = this.order.latestFirst ? -1 : 1;
    const order = this.best(scores, n).sort(
      (a, b) => scores[b]! - scores[a]! || direction * (a - b),
    );
    const width = this.terms.length;
    return order.map((row) => {
      const termIndexes: number[] = [];
      for (let t = 0; t < width; t++) if (this.counts[row * width + t]! > 0) termIndexes.push(t);
      return {
        source: this.sources[row]!,
        byteStart: this.starts[row]!,
        chars: this.lengths[row]!,
        focus: this.focuses[row]!,
        window: this.windows[row] === 1,
        score: scores[row]!,
        termIndexes,
      };
    });
  }

  /**
   * Keeps the better half of the rows, scored with the document frequencies known so far, so
   * memory stays bounded however many lines match. The final ranking of the rows kept is exact.
   */
  private prune(): void {
    const keep = this.best(this.scores(), Math.max(1, Math.floor(this.maxRows / 2)));
    const width = this.terms.length;
    keep.forEach((from, to) => {
      this.sources[to] = this.sources[from]!;
      this.starts[to] = this.starts[from]!;
      this.lengths[to] = this.lengths[from]!;
      this.focuses[to] = this.focuses[from]!;
      this.windows[to] = this.windows[from]!;
      this.counts.copyWithin(to * width, from * width, from * width + width);
    });
    this.prunedRows += this.count - keep.length;
    this.count = keep.length;
  }

  private grow(): void {
    const capacity = Math.min(this.capacity * 2, Math.max(this.maxRows, INITIAL_ROWS));
    const widen = <T extends Float64Array | Uint32Array | Uint16Array | Uint8Array>(
      old: T,
      make: (size: number) => T,
      size: number,
    ): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.sources = widen(this.sources, (s) => new Uint32Array(s), capacity);
    this.starts = widen(this.starts, (s) => new Float64Array(s), capacity);
    this.lengths = widen(this.lengths, (s) => new Float64Array(s), capacity);
    this.focuses = widen(this.focuses, (s) => new Float64Array(s), capacity);
    this.windows = widen(this.windows, (s) => new Uint8Array(s), capacity);
    this.counts = widen(this.counts, (s) => new Uint16Array(s), capacity * this.terms.length);
    this.capacity = capacity;
  }
}
