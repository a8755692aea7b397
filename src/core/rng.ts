/**
 * The one seeded PRNG of spillway (mulberry32): deterministic test content, demo data,
 * benchmark fixtures and evaluation workloads. Not for anything secret.
 *
 * @example
 * const rng = new Rng(seedOf("bench/log/100"));
 * rng.int(10); // the same integer in [0, 10) on every run
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniformly distributed unsigned 32-bit integer. */
  uint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** An integer in [min, max]. */
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** `digits` lower-case hex digits. */
  hex(digits: number): string {
    let out = "";
    while (out.length < digits) out += this.uint32().toString(16).padStart(8, "0");
    return out.slice(0, digits);
  }
}

/** A 32-bit FNV-1a hash of a string, to derive seeds from names. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The PRNG as a function returning floats in [0, 1), for code that only needs `random()`.
 *
 * @example
 * const random = seededRandom(7);
 * random(); // the same number in [0, 1) on every run
 */
export function seededRandom(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.float();
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
