/**
 * Records delimited by indentation (records.ts): list items (`- …` with the lines indented
 * under them, as in YAML and Markdown) and indented blocks (a header line with the more
 * indented lines below it: stack frames, a test failure's assertion, a nested mapping).
 */
import { indentOf, isBlank, type LineInfo, type LineWindow } from "./record-lines.js";
import type { FoundRecord } from "./record-types.js";

/** A list item's first line: a dash, then a space or the line's end. */
const ITEM_LINE = /^\s*-(?:\s|$)/;
/** An item whose content is a mapping (`- key: value`), not a scalar. */
const MAPPING_ITEM = /^\s*-\s+[^\s#][^:]*:(?:\s|$)/;

/** The lines that contain line `at` by indentation (each less indented than the last), innermost first. */
async function ancestors(window: LineWindow, at: number): Promise<LineInfo[]> {
  const start = await window.line(at);
  if (!start) return [];
  const found: LineInfo[] = [];
  let need = indentOf(start.text);
  for (let i = at - 1; i >= 0 && need > 0; i--) {
    const line = await window.line(i);
    if (!line) break;
    if (isBlank(line.text)) continue;
    const indent = indentOf(line.text);
    if (indent < need) {
      found.push(line);
      need = indent;
    }
  }
  return found;
}

/**
 * The last line of the block a line at indentation `indent` heads: the lines below it that are
 * blank or indented more, trailing blanks left out. `null` when the budget ran out before its
 * end, or when the block passes `maxLines` (if given).
 */
async function blockEnd(
  window: LineWindow,
  head: number,
  indent: number,
  maxLines?: number,
): Promise<number | null> {
  let last = head;
  for (let i = head + 1; ; i++) {
    if (maxLines !== undefined && i - head >= maxLines) return null;
    const line = await window.line(i);
    if (!line) return i >= window.totalLines ? last : null;
    if (isBlank(line.text)) continue;
    if (indentOf(line.text) <= indent) return last;
    last = i;
  }
}

/** True when another item starts at the same column just before or after this one. */
async function hasSibling(window: LineWindow, item: LineInfo, last: number): Promise<boolean> {
  const column = indentOf(item.text);
  const isSibling = (line: LineInfo) => indentOf(line.text) === column && ITEM_LINE.test(line.text);
  for (let i = last + 1; ; i++) {
    const line = await window.line(i);
    if (!line) break;
    if (isBlank(line.text)) continue;
    if (isSibling(line)) return true;
    break;
  }
  for (let i = item.line - 1; i >= 0; i--) {
    const line = await window.line(i);
    if (!line) break;
    if (isBlank(line.text) || indentOf(line.text) > column) continue;
    return isSibling(line);
  }
  return false;
}

/**
 * The innermost list item around line `at`: the line itself when it starts an item, else the
 * nearest less indented item line above. An item of one scalar line (`- --verbose`) is part of
 * its parent's record; a one-line item counts only beside sibling items (a diff's `- old` line
 * is no list).
 */
export async function listItem(window: LineWindow, at: number): Promise<FoundRecord | null> {
  const line = await window.line(at);
  if (!line) return null;
  return firstItem(window, [line, ...(await ancestors(window, at))]);
}

/**
 * The list item that encloses the item starting at line `first`: the nearest less indented item
 * line above it that makes a record (nested YAML: the pod around one of its containers).
 */
export async function outerListItem(
  window: LineWindow,
  first: number,
): Promise<FoundRecord | null> {
  return firstItem(window, await ancestors(window, first));
}

/** The first of `lines` (innermost first) that starts a list item making a record. */
async function firstItem(
  window: LineWindow,
  lines: readonly LineInfo[],
): Promise<FoundRecord | null> {
  const candidates = lines.filter((l) => ITEM_LINE.test(l.text));
  for (const item of candidates) {
    const last = await blockEnd(window, item.line, indentOf(item.text));
    if (last === null) return null;
    const qualifies =
      last > item.line || (MAPPING_ITEM.test(item.text) && (await hasSibling(window, item, last)));
    if (!qualifies) continue;
    return spanOf(window, "yaml-item", item.line, last);
  }
  return null;
}

/** Lines a block must hold to be a record on its own (a frame and its source line are two). */
const MIN_BLOCK_LINES = 3;

/** True when line `at` starts the output or follows a blank line: it opens a section. */
async function setOff(window: LineWindow, at: number): Promise<boolean> {
  if (at === 0) return true;
  const before = await window.line(at - 1);
  return before !== null && isBlank(before.text);
}

/**
 * The indented block around line `at`, from the blocks headed by the less indented lines
 * above it that fit the limits: the innermost whose head opens a section (after a blank line:
 * a test failure's `●` block rather than its code frame's `> 14 |` line, which is less
 * indented than the frame without heading it); else the innermost of at least MIN_BLOCK_LINES
 * lines (a traceback rather than one of its two-line frames); else the innermost. First, when
 * the line itself opens a section and heads a block that fits, that block; without a fitting
 * block, the line's own block when it heads one, else the innermost, to be clipped.
 */
export async function indentedBlock(
  window: LineWindow,
  at: number,
  fits: { readonly maxLines: number; readonly maxChars: number },
): Promise<FoundRecord | null> {
  const line = await window.line(at);
  if (!line) return null;
  const own = await blockEnd(window, at, indentOf(line.text));
  const ownBlock =
    own !== null && own > at && own - at < fits.maxLines
      ? await spanOf(window, "block", at, own)
      : null;
  // A line that opens a section and heads a block is its own record (a `●` failure line).
  if (
    ownBlock &&
    ownBlock.charEnd - ownBlock.charStart <= fits.maxChars &&
    (await setOff(window, at))
  )
    return ownBlock;
  const heads = await ancestors(window, at);
  const fitting: { block: FoundRecord; opens: boolean }[] = [];
  for (const head of heads) {
    const last = await blockEnd(window, head.line, indentOf(head.text), fits.maxLines);
    const block = last === null ? null : await spanOf(window, "block", head.line, last);
    if (!block || block.charEnd - block.charStart > fits.maxChars) break;
    fitting.push({ block, opens: await setOff(window, head.line) });
  }
  const chosen =
    fitting.find((f) => f.opens) ??
    fitting.find((f) => f.block.last - f.block.first + 1 >= MIN_BLOCK_LINES) ??
    fitting[0];
  if (chosen) return chosen.block;
  if (ownBlock) return ownBlock;
  if (own !== null && own > at && heads.length === 0) return spanOf(window, "block", at, own);
  const innermost = heads[0];
  if (!innermost) return null;
  const last = await blockEnd(window, innermost.line, indentOf(innermost.text));
  return last === null ? null : spanOf(window, "block", innermost.line, last);
}

/** A record of whole lines first..last. */
export async function spanOf(
  window: LineWindow,
  kind: FoundRecord["kind"],
  first: number,
  last: number,
): Promise<FoundRecord | null> {
  const start = await window.line(first);
  const end = await window.end(last);
  if (!start || end === null) return null;
  return { kind, first, last, charStart: start.start, charEnd: end };
}
