import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/helpers/temp-store.js";
import { isSpillwayError } from "../../core/errors.js";
import { readGgufInfo } from "./gguf-info.js";

/** A minimal GGUF v3 file: the given metadata and tensors (no tensor data). */
function gguf(
  metadata: [string, "string" | "u32" | "strings", string | number | string[]][],
  tensors: { name: string; dims: number[]; type: number }[],
): Buffer {
  const parts: Buffer[] = [];
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    parts.push(b);
  };
  const u64 = (n: number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    parts.push(b);
  };
  const str = (s: string) => {
    u64(Buffer.byteLength(s));
    parts.push(Buffer.from(s));
  };
  parts.push(Buffer.from("GGUF"));
  u32(3);
  u64(tensors.length);
  u64(metadata.length);
  for (const [key, kind, value] of metadata) {
    str(key);
    if (kind === "string") {
      u32(8);
      str(value as string);
    } else if (kind === "u32") {
      u32(4);
      u32(value as number);
    } else {
      u32(9);
      u32(8);
      u64((value as string[]).length);
      for (const item of value as string[]) str(item);
    }
  }
  for (const tensor of tensors) {
    str(tensor.name);
    u32(tensor.dims.length);
    for (const d of tensor.dims) u64(d);
    u32(tensor.type);
    u64(0);
  }
  return Buffer.concat(parts);
}

describe("readGgufInfo", () => {
  it("reads architecture, parameters, quantization, context length and chat template", async () => {
    const dir = await tempDir("spillway-gguf-");
    const path = join(dir, "tiny.gguf");
    await writeFile(
      path,
      gguf(
        [
          ["general.architecture", "string", "qwen2"],
          ["general.name", "string", "Tiny"],
          ["tokenizer.ggml.tokens", "strings", ["a", "b", "c"]],
          ["qwen2.context_length", "u32", 32768],
          ["general.file_type", "u32", 15],
          ["tokenizer.chat_template", "string", "{% for tool in tools %}{{ tool }}{% endfor %}"],
        ],
        [
          { name: "token_embd.weight", dims: [8, 4], type: 12 },
          { name: "blk.0.attn_norm.weight", dims: [8], type: 0 },
        ],
      ),
    );
    expect(await readGgufInfo(path)).toEqual({
      version: 3,
      architecture: "qwen2",
      name: "Tiny",
      parameters: 40,
      quantization: "Q4_K_M",
      tensorTypes: { Q4_K: 1, F32: 1 },
      contextLength: 32768,
      chatTemplate: "{% for tool in tools %}{{ tool }}{% endfor %}",
      templateHasTools: true,
    });
  });

  it("names the file when it is not GGUF, is cut short, or is missing", async () => {
    const dir = await tempDir("spillway-gguf-");
    const notGguf = join(dir, "model.gguf");
    await writeFile(notGguf, "<html>404</html>");
    const cut = join(dir, "cut.gguf");
    await writeFile(cut, gguf([["general.architecture", "string", "llama"]], []).subarray(0, 30));
    for (const [path, code] of [
      [notGguf, "MODEL_FILE_INVALID"],
      [cut, "MODEL_FILE_INVALID"],
      [join(dir, "absent.gguf"), "MODEL_FILE_NOT_FOUND"],
    ] as const) {
      const error = await readGgufInfo(path).catch((e: unknown) => e);
      expect(isSpillwayError(error, code)).toBe(true);
      expect((error as Error).message).toContain(path);
    }
  });
});
