/**
 * "Did you mean" suggestions for misspelled keys.
 */

const normalize = (word: string): string => word.toLowerCase().replace(/[-_\s]/g, "");

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate closest to `word` when it is a near miss (same letters ignoring case and
 * `-`/`_`, or a few edits away), else `undefined`.
 *
 * @example
 * didYouMean("max_turns", ["maxTurns", "stream"]); // "maxTurns"
 * didYouMean("colour", ["maxTurns"]); // undefined
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const target = normalize(word);
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const normalized = normalize(candidate);
    if (normalized === target) return candidate;
    const dist = distance(target, normalized);
    if (dist < bestDistance) {
      best = candidate;
      bestDistance = dist;
    }
  }
  const allowed = target.length <= 4 ? 1 : target.length <= 8 ? 2 : 3;
  return bestDistance <= allowed ? best : undefined;
}
