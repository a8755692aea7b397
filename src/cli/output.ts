/**
 * Writing to stdout and stderr: waits for `drain` when stdout is backed up (so a large export
 * never queues up in memory), and turns EPIPE (the reader went away, e.g. `| head`) into a
 * {@link BrokenPipeError} that stops the command quietly.
 *
 * It is also where stored text is made safe for a terminal (terminal-text.ts): display lines,
 * notes and JSON always; content (slice, page, export, a run's report) when stdout is a
 * terminal, while piped or redirected content stays byte for byte.
 */
import { TextDecoder } from "node:util";
import { BrokenPipeError } from "./errors.js";
import { printable, terminalJson } from "./terminal-text.js";

export class Output {
  private broken = false;
  private readonly waiters = new Set<(error?: Error) => void>();

  constructor(
    private readonly stdout: NodeJS.WriteStream = process.stdout,
    private readonly stderr: NodeJS.WriteStream = process.stderr,
  ) {
    stdout.on("error", (error: NodeJS.ErrnoException) => {
      this.broken = true;
      const reason = error.code === "EPIPE" ? new BrokenPipeError() : error;
      for (const wake of this.waiters) wake(reason);
      this.waiters.clear();
    });
    // Notes on a closed stderr are not worth crashing for.
    stderr.on("error", () => {});
    stdout.on("drain", () => {
      for (const wake of this.waiters) wake();
      this.waiters.clear();
    });
  }

  /** True when stdout is a terminal (then a missing final newline is added for display). */
  get isTerminal(): boolean {
    return this.stdout.isTTY === true;
  }

  /** Writes to stdout, waiting while it is backed up. */
  async write(chunk: string | Uint8Array): Promise<void> {
    if (this.broken) throw new BrokenPipeError();
    if (this.stdout.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      this.waiters.add((error) => (error ? reject(error) : resolve()));
    });
  }

  /**
   * Writes stored text (content, a report): exactly as given when piped; on a terminal with
   * its control characters escaped, as a complete display line.
   */
  async writeText(text: string): Promise<void> {
    if (!this.isTerminal) {
      await this.write(text);
      return;
    }
    await this.write(printable(text, { lines: true }));
    if (text.length > 0 && !text.endsWith("\n")) await this.write("\n");
  }

  /** Stored bytes (export): exactly as given when piped; decoded and escaped on a terminal. */
  async content(bytes: Uint8Array, last: boolean): Promise<void> {
    if (!this.isTerminal) {
      await this.write(bytes);
      return;
    }
    this.decoder ??= new TextDecoder("utf-8");
    const text = this.decoder.decode(bytes, { stream: !last });
    await this.write(printable(text, { lines: true }));
  }

  private decoder: TextDecoder | undefined;

  /** Writes display lines, each followed by a newline; controls in them are shown escaped. */
  async lines(lines: readonly string[]): Promise<void> {
    if (lines.length > 0) await this.write(`${lines.map((line) => printable(line)).join("\n")}\n`);
  }

  /** The one JSON document of a `--json` run (characters a terminal acts on as `\u` escapes). */
  async json(value: unknown): Promise<void> {
    await this.write(`${terminalJson(value, 2)}\n`);
  }

  /** One JSON Lines object (`run --json` events), escaped like {@link json}. */
  async jsonLine(value: unknown): Promise<void> {
    await this.write(`${terminalJson(value)}\n`);
  }

  /** Metadata for people (provenance, footers, progress): stderr, never mixed into data. */
  note(line: string): void {
    this.stderr.write(`${printable(line)}\n`);
  }
}
