/**
 * The files a peer sets large results aside in, and the reads its own tools make of them:
 * Claude Code's Read (offset/limit, numbered lines, a token cap) and Grep (ripgrep's content
 * and files modes, line numbers, context, a head limit), over real files in the spill directory.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";

/** A directory of spilled results; paths outside it are refused as the product refuses them. */
export class SpillDir {
  constructor(readonly dir: string) {}

  /** Writes a result and returns its absolute path. */
  async put(name: string, text: string): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, name);
    await writeFile(path, text);
    return path;
  }

  /** The text of a file in the directory, or undefined (outside it, or missing). */
  async read(path: string): Promise<string | undefined> {
    const full = isAbsolute(path) ? path : resolve(this.dir, path);
    if (!full.startsWith(`${this.dir}/`)) return undefined;
    try {
      return await readFile(full, "utf8");
    } catch {
      return undefined;
    }
  }

  async files(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).map((f) => join(this.dir, f));
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
export async function grepFiles(spill: SpillDir, args: GrepArgs): Promise<string> {
  let regex: RegExp;
  try {
    regex = new RegExp(args.pattern, args.ignoreCase ? "i" : "");
  } catch (error) {
    return `Error: invalid regex: ${error instanceof Error ? error.message : String(error)}`;
  }
  const targets = args.path ? [args.path] : await spill.files();
  const rows: string[] = [];
  let total = 0;
  for (const target of targets) {
    const text = await spill.read(target);
    if (text === undefined) {
      if (args.path)
        return `Error: path does not exist or is outside the allowed directory: ${target}`;
      continue;
    }
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
        const prefix = args.path ? "" : `${target}${mark}`;
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
