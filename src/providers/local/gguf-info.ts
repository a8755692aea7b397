/**
 * A small GGUF header reader: what a model file holds (architecture, parameter count,
 * quantization, context length, chat template) without loading it or node-llama-cpp.
 * Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md (little-endian).
 */
import { open } from "node:fs/promises";
import { SpillwayError } from "../../core/errors.js";

/** What `spillway models list` and the docs say about a GGUF file. */
export interface GgufInfo {
  readonly version: number;
  /** `general.architecture`, e.g. `qwen2`, `gemma3`, `llama`. */
  readonly architecture: string;
  /** `general.name`, when the file has one. */
  readonly name?: string;
  /** `general.size_label`: the parameter count as the publisher writes it (`7B`, `500M`). */
  readonly sizeLabel?: string;
  /** Sum of every tensor's elements (embeddings included). */
  readonly parameters: number;
  /** `general.file_type` as llama.cpp names it, e.g. `Q4_K_M`. */
  readonly quantization: string;
  /** Tensor count per ggml type, e.g. `{ Q4_K: 169, F32: 141, Q6_K: 29 }`. */
  readonly tensorTypes: Readonly<Record<string, number>>;
  /** `<architecture>.context_length`: the context the model was trained for. */
  readonly contextLength?: number;
  /** `tokenizer.chat_template` (Jinja), when present. */
  readonly chatTemplate?: string;
  /** True when the chat template renders a `tools` list (native tool calling). */
  readonly templateHasTools: boolean;
}

// llama.cpp's `enum llama_ftype` (general.file_type).
const FILE_TYPES: Readonly<Record<number, string>> = {
  0: "F32",
  1: "F16",
  2: "Q4_0",
  3: "Q4_1",
  7: "Q8_0",
  8: "Q5_0",
  9: "Q5_1",
  10: "Q2_K",
  11: "Q3_K_S",
  12: "Q3_K_M",
  13: "Q3_K_L",
  14: "Q4_K_S",
  15: "Q4_K_M",
  16: "Q5_K_S",
  17: "Q5_K_M",
  18: "Q6_K",
  19: "IQ2_XXS",
  20: "IQ2_XS",
  21: "Q2_K_S",
  22: "IQ3_XS",
  23: "IQ3_XXS",
  24: "IQ1_S",
  25: "IQ4_NL",
  26: "IQ3_S",
  27: "IQ3_M",
  28: "IQ2_S",
  29: "IQ2_M",
  30: "IQ4_XS",
  31: "IQ1_M",
  32: "BF16",
};

// ggml's `enum ggml_type` (tensor types).
const TENSOR_TYPES: Readonly<Record<number, string>> = {
  0: "F32",
  1: "F16",
  2: "Q4_0",
  3: "Q4_1",
  6: "Q5_0",
  7: "Q5_1",
  8: "Q8_0",
  9: "Q8_1",
  10: "Q2_K",
  11: "Q3_K",
  12: "Q4_K",
  13: "Q5_K",
  14: "Q6_K",
  15: "Q8_K",
  16: "IQ2_XXS",
  17: "IQ2_XS",
  18: "IQ3_XXS",
  19: "IQ1_S",
  20: "IQ4_NL",
  21: "IQ3_S",
  22: "IQ2_S",
  23: "IQ4_XS",
  24: "I8",
  25: "I16",
  26: "I32",
  27: "I64",
  28: "F64",
  29: "IQ1_M",
  30: "BF16",
};

/** Sequential little-endian reads over a file, through a 1 MiB buffer. */
class FileCursor {
  private buffer = Buffer.alloc(0);
  private start = 0;
  private filePos = 0;

  constructor(private readonly handle: import("node:fs/promises").FileHandle) {}

  private async need(bytes: number): Promise<void> {
    if (this.buffer.length - this.start >= bytes) return;
    const rest = this.buffer.subarray(this.start);
    const chunk = Buffer.alloc(Math.max(bytes - rest.length, 1 << 20));
    const { bytesRead } = await this.handle.read(chunk, 0, chunk.length, this.filePos);
    this.filePos += bytesRead;
    this.buffer = Buffer.concat([rest, chunk.subarray(0, bytesRead)]);
    this.start = 0;
    if (this.buffer.length < bytes) throw new RangeError("unexpected end of file");
  }

  async bytes(n: number): Promise<Buffer> {
    await this.need(n);
    const out = this.buffer.subarray(this.start, this.start + n);
    this.start += n;
    return out;
  }

  async u32(): Promise<number> {
    return (await this.bytes(4)).readUInt32LE(0);
  }

  async u64(): Promise<number> {
    const value = (await this.bytes(8)).readBigUInt64LE(0);
    if (value > BigInt(Number.MAX_SAFE_INTEGER))
      throw new RangeError("a 64-bit count is too large");
    return Number(value);
  }

  async string(): Promise<string> {
    const length = await this.u64();
    if (length > 64 * 1024 * 1024) throw new RangeError("a string is longer than 64 MiB");
    return (await this.bytes(length)).toString("utf8");
  }
}

const SCALAR_SIZES: Readonly<Record<number, number>> = {
  0: 1,
  1: 1,
  2: 2,
  3: 2,
  4: 4,
  5: 4,
  6: 4,
  7: 1,
  10: 8,
  11: 8,
  12: 8,
};

async function readValue(cursor: FileCursor, type: number): Promise<unknown> {
  switch (type) {
    case 0:
      return (await cursor.bytes(1)).readUInt8(0);
    case 1:
      return (await cursor.bytes(1)).readInt8(0);
    case 2:
      return (await cursor.bytes(2)).readUInt16LE(0);
    case 3:
      return (await cursor.bytes(2)).readInt16LE(0);
    case 4:
      return cursor.u32();
    case 5:
      return (await cursor.bytes(4)).readInt32LE(0);
    case 6:
      return (await cursor.bytes(4)).readFloatLE(0);
    case 7:
      return (await cursor.bytes(1)).readUInt8(0) !== 0;
    case 8:
      return cursor.string();
    case 9: {
      const itemType = await cursor.u32();
      const count = await cursor.u64();
      const size = SCALAR_SIZES[itemType];
      // Arrays (token lists of 150,000 entries) are skipped: nothing here needs them.
      if (size !== undefined) await cursor.bytes(size * count);
      else for (let i = 0; i < count; i++) await readValue(cursor, itemType);
      return { array: itemType, count };
    }
    case 10:
      return Number((await cursor.bytes(8)).readBigUInt64LE(0));
    case 11:
      return Number((await cursor.bytes(8)).readBigInt64LE(0));
    case 12:
      return (await cursor.bytes(8)).readDoubleLE(0);
    default:
      throw new RangeError(`unknown metadata value type ${type}`);
  }
}

/**
 * Reads a GGUF file's header and tensor table. Throws MODEL_FILE_INVALID naming the file
 * when it is not a GGUF file (or is cut short), MODEL_FILE_NOT_FOUND when it does not exist.
 *
 * @example
 * const info = await readGgufInfo("/models/model-q4_k_m.gguf");
 * info.architecture; // the `general.architecture` key, e.g. "llama"
 * info.quantization; // "Q4_K_M"
 * info.contextLength; // the trained context, e.g. 8192
 */
export async function readGgufInfo(path: string): Promise<GgufInfo> {
  let handle: import("node:fs/promises").FileHandle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    throw new SpillwayError(
      "MODEL_FILE_NOT_FOUND",
      `The model file ${path} cannot be opened (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
      { file: path },
      { cause: error },
    );
  }
  try {
    const cursor = new FileCursor(handle);
    const magic = (await cursor.bytes(4)).toString("latin1");
    if (magic !== "GGUF") {
      throw new SpillwayError(
        "MODEL_FILE_INVALID",
        `The model file ${path} is not a GGUF file (it starts with ${JSON.stringify(magic)}, not "GGUF").`,
        { file: path },
      );
    }
    const version = await cursor.u32();
    const tensorCount = await cursor.u64();
    const kvCount = await cursor.u64();
    const metadata = new Map<string, unknown>();
    for (let i = 0; i < kvCount; i++) {
      const key = await cursor.string();
      const type = await cursor.u32();
      metadata.set(key, await readValue(cursor, type));
    }
    let parameters = 0;
    const tensorTypes: Record<string, number> = {};
    for (let i = 0; i < tensorCount; i++) {
      await cursor.string();
      const dims = await cursor.u32();
      let elements = 1;
      for (let d = 0; d < dims; d++) elements *= await cursor.u64();
      const type = await cursor.u32();
      await cursor.u64();
      parameters += elements;
      const typeName = TENSOR_TYPES[type] ?? `type${type}`;
      tensorTypes[typeName] = (tensorTypes[typeName] ?? 0) + 1;
    }
    const text = (key: string) => {
      const value = metadata.get(key);
      return typeof value === "string" ? value : undefined;
    };
    const architecture = text("general.architecture") ?? "unknown";
    const contextLength = metadata.get(`${architecture}.context_length`);
    const fileType = metadata.get("general.file_type");
    const chatTemplate = text("tokenizer.chat_template");
    const name = text("general.name");
    const sizeLabel = text("general.size_label");
    return {
      version,
      architecture,
      ...(name !== undefined ? { name } : {}),
      ...(sizeLabel !== undefined ? { sizeLabel } : {}),
      parameters,
      quantization:
        typeof fileType === "number"
          ? (FILE_TYPES[fileType] ?? `file type ${fileType}`)
          : "unknown",
      tensorTypes,
      ...(typeof contextLength === "number" ? { contextLength } : {}),
      ...(chatTemplate !== undefined ? { chatTemplate } : {}),
      templateHasTools: chatTemplate !== undefined && /\btools\b/.test(chatTemplate),
    };
  } catch (error) {
    if (error instanceof SpillwayError) throw error;
    throw new SpillwayError(
      "MODEL_FILE_INVALID",
      `The model file ${path} is not a readable GGUF file (${(error as Error).message}); it may be cut short: fetch it again.`,
      { file: path },
      { cause: error },
    );
  } finally {
    await handle.close();
  }
}
