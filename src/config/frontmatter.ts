/**
 * Splitting a Markdown file into YAML frontmatter (between `---` lines) and body.
 */

/** A Markdown text split at its frontmatter. */
export type MarkdownParts =
  | {
      /** The YAML between the `---` lines; absent when the file has no frontmatter. */
      frontmatter?: string;
      /** Lines of the file before the YAML text (the opening `---`). */
      frontmatterLineOffset: number;
      body: string;
      unclosed?: false;
    }
  | { unclosed: true };

/**
 * Splits a Markdown text. Frontmatter starts with a `---` first line and ends at the next
 * `---` (or `...`) line; a text that does not start with `---` has none. `unclosed` is set
 * when the opening line has no closing one.
 *
 * @example
 * splitFrontmatter("---\nmaxTurns: 5\n---\nYou are terse.\n");
 * // { frontmatter: "maxTurns: 5", frontmatterLineOffset: 1, body: "You are terse.\n" }
 */
export function splitFrontmatter(text: string): MarkdownParts {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = source.split(/\r?\n/);
  if (lines[0]?.trimEnd() !== "---") return { frontmatterLineOffset: 0, body: source };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]?.trimEnd();
    if (line === "---" || line === "...") {
      return {
        frontmatter: lines.slice(1, i).join("\n"),
        frontmatterLineOffset: 1,
        body: lines.slice(i + 1).join("\n"),
      };
    }
  }
  return { unclosed: true };
}
