/** Lines a task asks for by number. */
export interface TaskLines {
  readonly start: number;
  readonly end: number;
}

/**
 * The first line range a task names ("line 135", "lines 40-60", "lines 40 to 60") that lies
 * inside an output of `lineCount` lines: the handle message offers to read exactly those.
 *
 * @example
 * taskLines("Read line 135 and report its checksum.", 300); // { start: 135, end: 135 }
 * taskLines("Read line 135.", 100); // undefined: the output has 100 lines
 */
export function taskLines(taskText: string, lineCount: number): TaskLines | undefined {
  for (const match of taskText.matchAll(
    /\blines?\s+(\d{1,9})(?:\s*(?:-|–|to|through)\s*(\d{1,9}))?/gi,
  )) {
    const start = Number(match[1]);
    const end = match[2] === undefined ? start : Number(match[2]);
    if (start >= 1 && end >= start && end <= lineCount) return { start, end };
  }
  return undefined;
}
