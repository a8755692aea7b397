/**
 * A small, fast, seeded PRNG (mulberry32) for deterministic test content.
 *
 * @example
 * const random = seededRandom(7);
 * random(); // the same number in [0, 1) on every run
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Picks an element of a non-empty list.
 *
 * @example
 * pick(seededRandom(1), ["INFO", "WARN"]); // the same level for the same seed
 */
export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}
