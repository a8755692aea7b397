/**
 * What a scripted agent understands of a question, from its words alone: the id it names, a
 * quoted phrase, a form described in words (turned into a regular expression), a dotted field
 * path, the words naming what to report, and whether it asks about what comes just before its
 * cue or at the end. A stand-in for a model's reading of the prompt: it sees the question text
 * and nothing else (no task, no answer, no position).
 */

export interface Question {
  readonly text: string;
  /** An identifier the question names (a prefix, an underscore, 5+ letters or digits: `evt_4k2…`). */
  readonly id?: string;
  /** A phrase the question quotes ("shutdown complete"). */
  readonly phrase?: string;
  /** A regular expression (JavaScript syntax) for a value whose form the question describes. */
  readonly pattern?: string;
  /** A dotted field path the question names, e.g. ["payment", "auth", "code"]. */
  readonly fieldPath?: readonly string[];
  /** Lower-case words naming what to report ("refund", "reference"). */
  readonly attribute: readonly string[];
  /** The question asks for something just before its cue. */
  readonly before: boolean;
  /** The question is about the end of the output. */
  readonly atEnd: boolean;
}

const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

const CLASSES: readonly [RegExp, string][] = [
  [/^digits?$/, "\\d"],
  [/^(capital|upper-?case) letters?$/, "[A-Z]"],
  [/^(small|lower-?case) letters?$/, "[a-z]"],
  [/^letters?$/, "[A-Za-z]"],
  [/^dash(es)?$|^hyphens?$/, "-"],
  [/^underscores?$/, "_"],
  [/^dots?$|^periods?$/, "\\."],
  [/^colons?$/, ":"],
];

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** "TXN-, four digits, a dash, four capital letters" → `\bTXN-\d{4}-[A-Z]{4}\b`. */
export function patternOfForm(form: string): string | undefined {
  const parts = form
    .split(/,\s*|\s+and\s+|\s+then\s+/)
    .map((p) => p.trim())
    .filter(Boolean);
  let source = "";
  for (const part of parts) {
    const counted = /^(\w+)\s+(.+)$/.exec(part);
    const count = counted ? NUMBERS[counted[1]!.toLowerCase()] : undefined;
    const noun = (count !== undefined ? counted![2]! : part).toLowerCase();
    const cls = CLASSES.find(([words]) => words.test(noun))?.[1];
    if (cls) source += count && count > 1 ? `${cls}{${count}}` : cls;
    else if (/^[\w-]+$/.test(part)) source += escapeRegex(part);
    else return undefined;
  }
  return source ? `\\b${source}\\b` : undefined;
}

const STOP = new Set(["the", "a", "an", "what", "which", "is", "was", "of", "for", "in", "that"]);

/** The words between "What is the" / "Which" and where the question turns to its cue. */
function attributeOf(question: string): string[] {
  const head =
    /^(?:what|which)\s+(?:is|was|are)?\s*(?:the\s+)?(.+?)(?:\s+\(|\s+recorded\b|\s+in\s+the\b|\s+of\b|\s+for\b|\s+was\b|\s+is\b|\s+has\b|\s+defined\b|\?)/i.exec(
      question.trim(),
    )?.[1] ?? "";
  return head
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !STOP.has(w));
}

/**
 * Reads a question the way a model would before choosing a tool call.
 *
 * @example
 * parseQuestion("What is the refund reference recorded for event evt_4k2p9x7ab?");
 * // { id: "evt_4k2p9x7ab", attribute: ["refund", "reference"], before: false, atEnd: false, … }
 */
export function parseQuestion(text: string): Question {
  const id = /\b([A-Za-z]+_[A-Za-z0-9]{5,})\b/.exec(text)?.[1];
  const phrase = /"([^"]{3,})"/.exec(text)?.[1];
  const form = /has the form\s+([^?]+)\?/i.exec(text)?.[1];
  const pattern = form ? patternOfForm(form) : undefined;
  const path = /\(([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\)/.exec(text)?.[1];
  const attribute = attributeOf(text);
  if (path) attribute.push(...path.toLowerCase().split("."));
  return {
    text,
    ...(id ? { id } : {}),
    ...(phrase ? { phrase } : {}),
    ...(pattern ? { pattern } : {}),
    ...(path ? { fieldPath: path.split(".") } : {}),
    attribute: [...new Set(attribute)],
    before: /\bjust before\b|\bright before\b|\bbefore\b/i.test(text),
    atEnd: /\bat the end\b|\blast\b|\bfinal\b/i.test(text),
  };
}

/** What the agent searches for: the id, else the described form, else the quoted phrase. */
export function searchTermOf(q: Question): { pattern: string; regex: boolean } | undefined {
  if (q.id) return { pattern: q.id, regex: false };
  if (q.pattern) return { pattern: q.pattern, regex: true };
  if (q.phrase) return { pattern: q.phrase, regex: false };
  return undefined;
}
