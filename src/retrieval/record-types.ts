import type { Provenance } from "./provenance.js";

/**
 * What kind of unit a record is, by the structure that delimits it:
 * - `json-object`: the innermost array element (else object) around the match, in JSON text;
 * - `json-line`: the match line, one whole JSON value in JSON lines;
 * - `yaml-item`: the innermost list item (`- …` with its indented lines) around the match;
 * - `csv-row`: the row (quoted fields may span lines), with the header row's names;
 * - `table-row`: a row of a pipe table (Markdown), with its header row's names;
 * - `log-entry`: a line that starts like the output's record lines, with the lines up to the next;
 * - `block`: a section between rule lines, an indented block with its header line, or a paragraph;
 * - `lines`: no structure found: the match line with `context` lines each side.
 */
export type RecordKind =
  | "json-object"
  | "json-line"
  | "yaml-item"
  | "csv-row"
  | "table-row"
  | "log-entry"
  | "block"
  | "lines";

/** Bounds on what a record shows. */
export interface RecordLimits {
  /** Most lines shown (default 60). */
  readonly maxLines?: number;
  /** Most characters shown (default 4,000). */
  readonly maxChars?: number;
  /** Lines each side of the match when no structure is found (default 2). */
  readonly context?: number;
}

export const DEFAULT_RECORD_LIMITS = { maxLines: 60, maxChars: 4_000, context: 2 } as const;

/** A part of a record left out of what is shown, and the slice request that reads it exactly. */
export interface OmittedPart {
  /** 1-based lines the part touches. */
  readonly lineStart: number;
  readonly lineEnd: number;
  /** Characters [charStart, charEnd). */
  readonly charStart: number;
  readonly charEnd: number;
  /** Pass to `readSlice` (or `readOutput` with `mode: "slice"`): whole lines, or characters. */
  readonly slice:
    | { readonly lineStart: number; readonly lineEnd: number }
    | { readonly start: number; readonly length: number };
}

/** A CSV field of the match's row, named by the header row. */
export interface RecordField {
  readonly name: string;
  readonly value: string;
}

/** The record a match belongs to. */
export interface MatchRecord {
  readonly kind: RecordKind;
  /** 1-based first and last line of the whole record. */
  readonly lineStart: number;
  readonly lineEnd: number;
  /** Characters [charStart, charEnd) of the whole record. */
  readonly charStart: number;
  readonly charEnd: number;
  /**
   * The record, or, when `clipped`, the part around the match: exactly the stored characters
   * `provenance` names (a slice of `provenance.charStart`..`charEnd` returns this text).
   */
  readonly text: string;
  readonly provenance: Provenance;
  /** Set when the record is over the limits: the parts left out of `text`, in order. */
  readonly clipped?: { readonly omitted: readonly OmittedPart[] };
  /** csv-row, table-row: the header row (names parsed, quotes removed). */
  readonly header?: {
    readonly text: string;
    readonly names: readonly string[];
    readonly provenance: Provenance;
  };
  /** csv-row, table-row, when shown whole: its fields by header name, in order. */
  readonly fields?: readonly RecordField[];
  /** In Markdown: the heading line of the section the record is in (record-section.ts). */
  readonly section?: {
    readonly text: string;
    readonly provenance: Provenance;
  };
}

/** A record as a finder found it: 0-based lines and characters of the whole record. */
export interface FoundRecord {
  readonly kind: RecordKind;
  readonly first: number;
  readonly last: number;
  readonly charStart: number;
  readonly charEnd: number;
  readonly header?: { readonly charStart: number; readonly charEnd: number; names: string[] };
  readonly fields?: readonly RecordField[];
  /** Characters [charStart, charEnd) of the heading line of the record's section. */
  readonly section?: { readonly charStart: number; readonly charEnd: number };
}
