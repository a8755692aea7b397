/**
 * What a peer's own tools reach (the project and the results it set aside) and the reads they
 * make: Claude Code's Grep (ripgrep's content, files and count modes, line numbers, context, a
 * head limit) and numbered lines for its Read, over real files.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";

/**
 * What a peer's own tools can reach: the project the agent works in (relative paths resolve
 * against it, as a coding agent's tools resolve them against its working directory) and the
 * directory its large results are saved to. Paths elsewhere are refused.
 */
export class Workspace {
  constructor(
    readonly project: string,
    readonly spill: string,
  ) {}

  /** Saves a result aside and returns its absolute path. */
  async put(name: string, text: string): Promise<string> {
    await mkdir(this.spill, { recursive: true });
    const path = join(this.spill, name);
    await writeFile(path, text);
    return path;
  }

  /** The absolute path, when it is inside the project or the spill directory. */
  resolve(path: string): string | undefined {
    const full = isAbsolute(path) ? resolve(path) : resolve(this.project, path);
    return [this.project, this.spill].some((dir) => full === dir || full.startsWith(`${dir}/`))
      ? full
      : undefined;
  }

  /** The text of a file it can reach, or undefined (outside, missing, a directory). */
  async read(path: string): Promise<string | undefined> {
    const full = this.resolve(path);
    if (full === undefined) return undefined;
    try {
      return await readFile(full, "utf8");
    } catch {
      return undefined;
    }
  }

  /** Every file under a directory it can reach (default: the project), relative to the project when inside it. */
  async files(dir = this.project): Promise<string[]> {
    const full = this.resolve(dir);
    if (full === undefined) return [];
    try {
      const entries = await readdir(full, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name))
        .map((p) => (p.startsWith(`${this.project}/`) ? relative(this.project, p) : p))
        .sort();
    } catch {
      return [];
    }
  }
}

const lines = (text: string) => text.replace(/\r?\n$/, "").split(/\r?\n/);

/** `N\tline` rows, Read's numbered format. */
export function numbered(text: string, from: number, to: number): string {
  const all = lines(text);
  const out: string[] = [];
  for (let n = from; n <= Math.min(to, all.length); n++) out.push(`${n}\t${all[n - 1]}`);
  return out.join("\n");
}

/** The number of lines a text holds. */
export const lineCount = (text: string) => lines(text).length;

export interface GrepArgs {
  readonly pattern: string;
  readonly path?: string;
  readonly outputMode: "content" | "files_with_matches" | "count";
  readonly ignoreCase: boolean;
  readonly lineNumbers: boolean;
  readonly before: number;
  readonly after: number;
  readonly headLimit: number;
  readonly offset: number;
}

/** ripgrep over the files, as Claude Code's Grep runs it; an invalid pattern says so. */
export async function grepFiles(space: Workspace, args: GrepArgs): Promise<string> {
  let regex: RegExp;
  try {
    regex = new RegExp(args.pattern, args.ignoreCase ? "i" : "");
  } catch (error) {
    return `Error: invalid regex: ${error instanceof Error ? error.message : String(error)}`;
  }
  const single = args.path !== undefined && (await space.read(args.path)) !== undefined;
  const targets = single ? [args.path!] : await space.files(args.path);
  if (targets.length === 0 && args.path)
    return `Error: path does not exist or is outside the allowed directory: ${args.path}`;
  const rows: string[] = [];
  let total = 0;
  for (const target of targets) {
    const text = await space.read(target);
    if (text === undefined) continue;
    const all = lines(text);
    const hits = all.flatMap((line, i) => (regex.test(line) ? [i] : []));
    total += hits.length;
    if (hits.length === 0) continue;
    if (args.outputMode === "files_with_matches") {
      rows.push(target);
      continue;
    }
    if (args.outputMode === "count") {
      rows.push(`${target}:${hits.length}`);
      continue;
    }
    let printed = -1;
    for (const hit of hits) {
      const from = Math.max(0, hit - args.before, printed + 1);
      const to = Math.min(all.length - 1, hit + args.after);
      if (printed >= 0 && from > printed + 1) rows.push("--");
      for (let i = from; i <= to; i++) {
        const mark = i === hit || hits.includes(i) ? ":" : "-";
        // One file named: `N:text`, as ripgrep prints it; a directory: `path:N:text`.
        const prefix = single ? "" : `${target}${mark}`;
        rows.push(args.lineNumbers ? `${prefix}${i + 1}${mark}${all[i]}` : `${prefix}${all[i]}`);
      }
      printed = to;
    }
  }
  if (total === 0) return "No matches found";
  const page =
    args.headLimit === 0
      ? rows.slice(args.offset)
      : rows.slice(args.offset, args.offset + args.headLimit);
  if (page.length === 0) return "No entries at this offset";
  const more = args.headLimit !== 0 && rows.length > args.offset + args.headLimit;
  return more
    ? `${page.join("\n")}\n\n[Showing results with pagination = limit: ${args.headLimit}, offset: ${args.offset}]`
    : page.join("\n");
}
