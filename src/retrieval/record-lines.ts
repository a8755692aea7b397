/**
 * Lazy, bounded access to the lines around a match, for the record finders (records.ts). Lines
 * are read through the output's line index in chunks, never the whole output; a scan budget in
 * characters bounds how far a finder may look in either direction.
 */
import type { OpenedOutput } from "../store/output-store.js";
import type { TextReader } from "../store/text-reader.js";
import { nextNewline } from "./byte-search.js";

/** Lines read per chunk (walking up or down re-reads nothing). */
const CHUNK_LINES = 64;
/** Characters decoded per chunk read before a long line is cut to its first PEEK_CHARS. */
const CHUNK_CHARS = 256 * 1024;
/** How much of a line longer than a chunk is kept as text. */
const PEEK_CHARS = 8 * 1024;

/** One line of the output. */
export interface LineInfo {
  /** 0-based line number. */
  readonly line: number;
  /** Character offset where the line starts. */
  readonly start: number;
  /** The line without its terminator: whole when `whole`, else its first PEEK_CHARS characters. */
  readonly text: string;
  readonly whole: boolean;
}

/** Columns of leading whitespace (a tab counts 4). */
export function indentOf(text: string): number {
  let columns = 0;
  for (const ch of text) {
    if (ch === " ") columns++;
    else if (ch === "\t") columns += 4;
    else break;
  }
  return columns;
}

export const isBlank = (text: string) => text.trim().length === 0;

/** The class of one character: a digit, a letter (any script), or the character itself. */
function classOf(ch: string): string {
  if (ch >= "0" && ch <= "9") return "9";
  if (/\p{L}/u.test(ch)) return "a";
  return ch;
}

/**
 * A field's shape: each character's class, runs of one class kept once. Shapes compare lines
 * by form, never by words.
 *
 * @example
 * fieldShape("2026-03-14"); // "9-9-9"
 */
export function fieldShape(field: string): string {
  let shape = "";
  for (const ch of field) {
    const c = classOf(ch);
    if (!shape.endsWith(c)) shape += c;
  }
  return shape;
}

/**
 * The lines of one output, read on demand in chunks of CHUNK_LINES, up to `budgetChars`
 * characters in all. A line past the budget or past the end is `null`: finders treat it as an
 * unknown boundary.
 */
export class LineWindow {
  private readonly lines = new Map<number, LineInfo>();
  private readonly ends = new Map<number, number>();
  private spent = 0;

  constructor(
    readonly output: OpenedOutput,
    readonly reader: TextReader,
    private readonly budgetChars: number,
  ) {}

  get totalLines(): number {
    return this.reader.totalLines;
  }

  get totalChars(): number {
    return this.reader.totalChars;
  }

  /** Line `i` (0-based), or null past either end of the output or past the budget. */
  async line(i: number): Promise<LineInfo | null> {
    if (i < 0 || i >= this.reader.totalLines) return null;
    const known = this.lines.get(i);
    if (known) return known;
    if (this.spent >= this.budgetChars) return null;
    const first = Math.floor(i / CHUNK_LINES) * CHUNK_LINES;
    await this.readChunk(first, Math.min(this.reader.totalLines - 1, first + CHUNK_LINES - 1));
    return this.lines.get(i) ?? null;
  }

  /** Character offset of the end of line `i` (before its "\r\n" or "\n"); null as for `line`. */
  async end(i: number): Promise<number | null> {
    const info = await this.line(i);
    if (!info) return null;
    const known = this.ends.get(i);
    if (known !== undefined) return known;
    // A long line: find its newline in the bytes, without decoding what lies between.
    const startByte = (await this.reader.positionAtChar(info.start)).byte;
    let endByte = await nextNewline(this.output.source, startByte);
    if (endByte > startByte && endByte < this.output.source.size) {
      const [before] = await this.output.source.read(endByte - 1, 1);
      if (before === 13) endByte--;
    }
    const end = (await this.reader.positionAtByte(endByte)).char;
    this.ends.set(i, end);
    return end;
  }

  private async readChunk(first: number, last: number): Promise<void> {
    let at = first;
    while (at <= last && !this.lines.has(at)) {
      const range = await this.reader.readLines(at, last, CHUNK_CHARS);
      this.spent += range.text.length;
      const parts = range.text.split("\n");
      const complete = range.end.atLineStart || range.end.char >= this.reader.totalChars;
      // Without a trailing newline, the last part is the output's last line, or a line cut short.
      if (parts.length > 1 && parts[parts.length - 1] === "" && range.end.atLineStart) parts.pop();
      let start = range.start.char;
      for (let k = 0; k < parts.length; k++) {
        const raw = parts[k]!;
        const cut = k === parts.length - 1 && !complete;
        const text = raw.endsWith("\r") && !cut ? raw.slice(0, -1) : raw;
        const line = at + k;
        if (cut) {
          this.lines.set(line, { line, start, text: raw.slice(0, PEEK_CHARS), whole: false });
          at = line + 1;
          break;
        }
        this.lines.set(line, { line, start, text, whole: true });
        this.ends.set(line, start + text.length);
        start += raw.length + 1;
        if (k === parts.length - 1) at = line + 1;
      }
    }
  }
}
