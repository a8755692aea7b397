/**
 * Writing to stdout and stderr: waits for `drain` when stdout is backed up (so a large export
 * never queues up in memory), and turns EPIPE (the reader went away, e.g. `| head`) into a
 * {@link BrokenPipeError} that stops the command quietly.
 */
import { BrokenPipeError } from "./errors.js";

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

  /** Writes text as a complete display line on a terminal; exactly as given otherwise. */
  async writeText(text: string): Promise<void> {
    await this.write(text);
    if (this.isTerminal && text.length > 0 && !text.endsWith("\n")) await this.write("\n");
  }

  /** Writes lines, each followed by a newline. */
  async lines(lines: readonly string[]): Promise<void> {
    if (lines.length > 0) await this.write(`${lines.join("\n")}\n`);
  }

  /** The one JSON document of a `--json` run. */
  async json(value: unknown): Promise<void> {
    await this.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** Metadata for people (provenance, footers, progress): stderr, never mixed into data. */
  note(line: string): void {
    this.stderr.write(`${line}\n`);
  }
}
