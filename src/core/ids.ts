import { randomBytes } from "node:crypto";

/** Crockford base32 alphabet, lower case: no i, l, o, u, so ids read aloud and copy cleanly. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** Generates ids; injectable so tests can make them deterministic. */
export type IdGenerator = (prefix: string) => string;

/**
 * Encodes bytes as lower-case Crockford base32 (5 bits a character).
 *
 * @example
 * base32(new Uint8Array([255])) // "zw"
 */
export function base32(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >>> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/**
 * The default id generator: `prefix` + `_` + 26 base32 characters of 128 random bits, so a
 * handle cannot be guessed from another one.
 *
 * @example
 * randomId("out") // "out_5k2v9w…"
 */
export const randomId: IdGenerator = (prefix) => `${prefix}_${base32(randomBytes(16))}`;

/** The prefix of output ids (handles). */
export const OUTPUT_ID_PREFIX = "out";

/** True when `value` has the shape of an output id (it may still not exist). */
export function looksLikeOutputId(value: string): boolean {
  return /^out_[0-9a-z]{8,64}$/.test(value);
}
