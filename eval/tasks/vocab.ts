/**
 * Words, names and value makers the shapes share: realistic ids, people, places and times, all
 * from the seeded PRNG. Lookalikes (`lookalike`) differ from a value in one character, as ids in
 * real logs do.
 */
import type { Rng } from "../../src/core/rng.js";

export const SERVICES = [
  "checkout",
  "payments",
  "inventory",
  "search",
  "auth",
  "shipping",
  "notifications",
  "catalog",
  "billing",
  "gateway",
] as const;

export const FIRST_NAMES = [
  "Alice",
  "Bruno",
  "Chen",
  "Dara",
  "Emeka",
  "Farah",
  "Goran",
  "Hana",
  "Ivan",
  "Jonas",
  "Keiko",
  "Lena",
  "Mateo",
  "Nadia",
  "Omar",
  "Priya",
  "Quinn",
  "Rosa",
  "Sven",
  "Tomas",
] as const;

export const LAST_NAMES = [
  "Kim",
  "Silva",
  "Novak",
  "Okafor",
  "Haddad",
  "Ito",
  "Larsen",
  "Moreau",
  "Petrov",
  "Rossi",
  "Schmidt",
  "Tanaka",
  "Walsh",
  "Yilmaz",
  "Zhang",
] as const;

export const CITIES = [
  "Rotterdam",
  "Lyon",
  "Porto",
  "Gdansk",
  "Leipzig",
  "Bilbao",
  "Tampere",
  "Brno",
  "Graz",
  "Aarhus",
  "Turin",
  "Cork",
] as const;

export const PRODUCTS = [
  "walnut desk lamp",
  "merino travel scarf",
  "cast iron skillet",
  "bamboo cutting board",
  "linen duvet cover",
  "ceramic pour-over set",
  "trail running vest",
  "noise-cancelling earbuds",
  "folding camp stool",
  "copper watering can",
  "wool felt slippers",
  "steel water bottle",
] as const;

const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALNUM = `${LOWER}${DIGITS}`;

/** `n` characters drawn from `alphabet`. */
export function chars(rng: Rng, alphabet: string, n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += alphabet[rng.int(alphabet.length)];
  return out;
}

/** A lower-case id `prefix-xxxxxx` (letters and digits). */
export function idOf(rng: Rng, prefix: string, n = 6): string {
  return `${prefix}-${chars(rng, ALNUM, n)}`;
}

export const digits = (rng: Rng, n: number) => chars(rng, DIGITS, n);
export const hex = (rng: Rng, n: number) => rng.hex(n);

/**
 * The value with one character changed to another of the same class (digit for digit, letter for
 * letter), never the first or a separator: an id a tired reader takes for the other.
 *
 * @example
 * lookalike(rng, "req-7f3a2c"); // "req-7f3a9c"
 */
export function lookalike(rng: Rng, value: string): string {
  const positions = [...value].flatMap((c, i) => (i > 0 && /[a-z0-9]/i.test(c) ? [i] : []));
  for (let attempt = 0; attempt < 20; attempt++) {
    const i = rng.pick(positions);
    const c = value[i]!;
    const pool = /\d/.test(c) ? DIGITS : /[A-Z]/.test(c) ? LOWER.toUpperCase() : LOWER;
    const replacement = pool[rng.int(pool.length)]!;
    if (replacement !== c) return value.slice(0, i) + replacement + value.slice(i + 1);
  }
  return `${value}0`;
}

export function personOf(rng: Rng): { first: string; last: string; email: string } {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const domain = rng.pick(["example.com", "example.org", "mail.example.net"]);
  return { first, last, email: `${first}.${last}@${domain}`.toLowerCase() };
}

/** An IPv4 address in a private range. */
export function ipv4(rng: Rng): string {
  return `10.${rng.int(256)}.${rng.int(256)}.${1 + rng.int(254)}`;
}

/** A global-unicast IPv6 address in the documentation range, written short (`2001:db8:4f2a:17::9c`). */
export function ipv6(rng: Rng): string {
  const group = () => (1 + rng.int(0xfffe)).toString(16);
  return `2001:db8:${group()}:${group()}::${group()}`;
}

/** A clock that moves forward by random steps: ISO-8601 timestamps in order. */
export class Clock {
  private ms: number;
  constructor(
    rng: Rng,
    private readonly stepMs: [number, number] = [40, 2500],
  ) {
    this.ms = Date.UTC(
      2026,
      rng.int(12),
      1 + rng.int(27),
      6 + rng.int(4),
      rng.int(60),
      rng.int(60),
    );
    this.rng = rng;
  }
  private readonly rng: Rng;
  next(): Date {
    this.ms += this.rng.range(this.stepMs[0], this.stepMs[1]);
    return new Date(this.ms);
  }
}

/** `2026-03-14T08:00:00.123Z` */
export const iso = (d: Date) => d.toISOString();
/** `14/Mar/2026:08:00:00 +0000` (the common log format). */
export function clf(d: Date): string {
  const month = d.toLocaleString("en-US", { month: "short", timeZone: "UTC" });
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getUTCDate())}/${month}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/**
 * Indexes of `count` records where the planted ones go: spread between `from` and `to` (fractions
 * of the file), distinct, in increasing order.
 */
export function spots(rng: Rng, count: number, n: number, from = 0.08, to = 0.95): number[] {
  const taken = new Set<number>();
  while (taken.size < n) taken.add(Math.floor(count * (from + rng.float() * (to - from))));
  return [...taken].sort((a, b) => a - b);
}

/** A shuffled copy. */
export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
