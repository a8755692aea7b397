/**
 * The last few KiB of a child's stderr, kept so that "the server exited" can say why.
 * Bounded: a chatty server cannot grow it.
 */
export class StderrTail {
  readonly maxBytes: number;
  #chunks: Buffer[] = [];
  #size = 0;
  #droppedBytes = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  push(chunk: Buffer): void {
    if (this.maxBytes <= 0) return;
    const kept =
      chunk.length > this.maxBytes ? chunk.subarray(chunk.length - this.maxBytes) : chunk;
    this.#droppedBytes += chunk.length - kept.length;
    this.#chunks.push(Buffer.from(kept));
    this.#size += kept.length;
    while (this.#size > this.maxBytes) {
      const first = this.#chunks[0]!;
      const excess = this.#size - this.maxBytes;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#size -= first.length;
        this.#droppedBytes += first.length;
      } else {
        this.#chunks[0] = first.subarray(excess);
        this.#size -= excess;
        this.#droppedBytes += excess;
      }
    }
  }

  /** The kept text, trimmed; prefixed with "…" when earlier output was dropped. */
  text(): string {
    const text = Buffer.concat(this.#chunks, this.#size).toString("utf8").trim();
    return this.#droppedBytes > 0 && text !== "" ? `…${text}` : text;
  }
}
