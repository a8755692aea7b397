/**
 * Kinds of value a question can name instead of the value's words: "the IPv6 address", "the
 * commit's SHA", "the JWT". The output never says "IPv6"; it holds `2001:db8::1`. Each kind here
 * is a widely used form with a fixed written shape (the address, identifier, digest, token and
 * contact forms that log tools and secret scanners recognise), named by the words people use
 * for it; a question naming one can be answered by the lines holding a value of that shape
 * (SW-53 in docs/architecture.md). Patterns are JavaScript regular expressions without flags,
 * as `grep` runs them, and match a whole value, not part of a longer run of letters and digits.
 */

/** A kind of value: the words that name it in a question and the shape of its values. */
export interface ValueForm {
  /** What the kind is called, for messages and tests. */
  readonly name: string;
  /** The value's written shape, a JavaScript regular expression (no flags). */
  readonly pattern: string;
}

interface FormRule {
  readonly name: string;
  /** Words that name the kind in a question, in any case. */
  readonly named: RegExp;
  readonly pattern: string;
}

/** Not preceded or followed by a letter or digit: a whole value. */
const START = "(?<![0-9A-Za-z])";
const END = "(?![0-9A-Za-z])";
const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const HEX4 = "[0-9A-Fa-f]{1,4}";

const RULES: readonly FormRule[] = [
  {
    name: "IPv4 address",
    named: /\b(?:IPv4|IPs?|IP address(?:es)?)\b/i,
    pattern: `(?<![0-9.])(?:${OCTET}\\.){3}${OCTET}(?!\\.?[0-9])`,
  },
  {
    name: "IPv6 address",
    named: /\b(?:IPv6|IPs?|IP address(?:es)?)\b/i,
    // Eight groups, or fewer around one "::"; a time of day (12:30:45) is neither.
    pattern:
      `(?<![0-9A-Za-z:])(?:(?:${HEX4}:){7}${HEX4}|(?=[0-9A-Fa-f:]*::)(?:${HEX4}:){0,6}:?(?::${HEX4}){1,7}|(?:${HEX4}:){1,7}:)` +
      "(?![0-9A-Za-z:])",
  },
  {
    name: "MAC address",
    named: /\bMAC(?:s| address(?:es)?)?\b/i,
    pattern: `(?<![0-9A-Za-z:-])(?:[0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}(?![0-9A-Za-z:-])`,
  },
  {
    name: "UUID",
    named: /\b(?:UUID|GUID)s?\b/i,
    pattern: `${START}[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}${END}`,
  },
  {
    name: "e-mail address",
    named: /\be-?mails?(?: address(?:es)?)?\b/i,
    pattern:
      "(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}(?![A-Za-z0-9-])",
  },
  {
    name: "URL",
    named: /\b(?:URL|URI|link)s?\b/i,
    pattern: "\\b(?:https?|ftp|wss?)://[^\\s\"'<>]+",
  },
  {
    name: "JSON Web Token",
    named: /\b(?:JWTs?|JSON Web Tokens?|(?:bearer|access|id|session) tokens?)\b/i,
    // Header and payload are base64url JSON objects, which always begin `eyJ` ('{"').
    pattern: `${START}eyJ[A-Za-z0-9_-]+\\.eyJ[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*(?![A-Za-z0-9_-])`,
  },
  {
    name: "Windows security identifier",
    named: /\b(?:SIDs?|security identifiers?)\b/i,
    pattern: `${START}S-1-\\d+(?:-\\d+)+${END}`,
  },
  {
    name: "phone number",
    named: /\b(?:phone|telephone|mobile|fax)(?: numbers?)?\b/i,
    pattern:
      "(?<![0-9A-Za-z+])(?:\\+\\d{1,3}(?:[ .-]?\\(?\\d{1,4}\\)?){2,6}|\\(?\\d{3}\\)?[ .-]\\d{3}[ .-]\\d{4})(?![0-9A-Za-z])",
  },
];

/** Words that name a hexadecimal digest, key or identifier. */
const HEX_NAMED =
  /\b(?:SHA-?(?:1|224|256|384|512)?s?|MD5s?|hash(?:es)?|checksums?|digests?|hex(?:adecimal)?|commit (?:id|hash)s?)\b/i;
/**
 * A length the question gives: "40-character", "32 hex characters", "64 hex digits". The last
 * of a dashed run of numbers is a group of a layout ("8-4-4-4-12 hex digits"), not a length.
 */
const STATED_LENGTH =
  /(?<![\d-])\b(\d{1,3})[ -](?:hex(?:adecimal)? )?(?:characters?|chars?|digits?)\b/i;
/** The lengths of the common digests (MD5, SHA-1, SHA-224, SHA-256, SHA-384, SHA-512), longest first. */
const DIGEST_LENGTHS = [128, 96, 64, 56, 40, 32];
/** Digest lengths by algorithm, when the question names one and gives no length. */
const ALGORITHM_LENGTHS: readonly [RegExp, number][] = [
  [/\bMD5\b/i, 32],
  [/\bSHA-?1\b/i, 40],
  [/\bSHA-?256\b/i, 64],
  [/\bSHA-?512\b/i, 128],
];

/** The hexadecimal form a question names, with its length when the question fixes one. */
function hexForm(question: string): ValueForm | undefined {
  if (!HEX_NAMED.test(question)) return undefined;
  const stated = STATED_LENGTH.exec(question);
  const length = stated
    ? Number(stated[1])
    : ALGORITHM_LENGTHS.find(([named]) => named.test(question))?.[1];
  if (length !== undefined && (length < 8 || length > 256)) return undefined;
  const lengths = length === undefined ? DIGEST_LENGTHS : [length];
  return {
    name: length === undefined ? "hexadecimal digest" : `${length}-digit hexadecimal value`,
    pattern: `${START}(?:${lengths.map((n) => `[0-9A-Fa-f]{${n}}`).join("|")})${END}`,
  };
}

/** A count of decimal digits the question gives: "13-digit", "6 digits", "13桁" (Japanese). */
const STATED_DIGITS = /(?<![\d-])\b(\d{1,2})[ -]digits?\b|(\d{1,2}) ?桁/i;

/**
 * The number a question gives the length of ("the 13-digit code", "a 6-digit PIN"): that many
 * decimal digits, whole. A length of hexadecimal digits is the hexadecimal form's.
 */
function digitsForm(question: string): ValueForm | undefined {
  if (HEX_NAMED.test(question)) return undefined;
  const stated = STATED_DIGITS.exec(question);
  if (!stated) return undefined;
  const length = Number(stated[1] ?? stated[2]);
  if (length < 2 || length > 40) return undefined;
  return { name: `${length}-digit number`, pattern: `${START}[0-9]{${length}}${END}` };
}

/** Every length the task states, of characters or of digits (`replace` needs the `g` flag). */
const EVERY_STATED_LENGTH = new RegExp(STATED_LENGTH.source, "gi");
const EVERY_STATED_DIGITS = new RegExp(STATED_DIGITS.source, "gi");

/**
 * The task without the lengths it gives a value ("the 13-digit code", "64 hex characters",
 * "13桁"): a length describes the value's shape, and the output holds the value, never the
 * words of its length. Searched as words, the `13` of "13-digit" finds a date's 13th day.
 * A layout's last group ("8-4-4-4-12 hex digits") is not a length and stays.
 *
 * @example
 * withoutStatedLengths("Which 13-digit barcode is in the notes?");
 * // "Which  barcode is in the notes?"
 */
export function withoutStatedLengths(task: string): string {
  return task.replace(EVERY_STATED_LENGTH, "").replace(EVERY_STATED_DIGITS, "");
}

/**
 * The kinds of value a question names, in the order above: each one's values have a shape a
 * search for words cannot find ("the IPv6 address" is not in `2001:db8::1`).
 *
 * @example
 * valueFormsNamed("There is one IPv6 address in the log. Which one?").map((f) => f.name);
 * // ["IPv6 address"]
 * valueFormsNamed("Give me the 40-character SHA of the commit.")[0]?.pattern;
 * // "(?<![0-9A-Za-z])(?:[0-9A-Fa-f]{40})(?![0-9A-Za-z])"
 */
export function valueFormsNamed(question: string): ValueForm[] {
  const forms: ValueForm[] = RULES.filter((rule) => rule.named.test(question)).map(
    ({ name, pattern }) => ({ name, pattern }),
  );
  const hex = hexForm(question);
  if (hex) forms.push(hex);
  const digits = digitsForm(question);
  if (digits) forms.push(digits);
  return forms;
}
