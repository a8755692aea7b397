/**
 * Deterministic tool outputs of any size for tests, from spillway's one content generator
 * (core/synthetic): re-exported here as part of spillway/testing.
 */
export {
  GENERATED_KINDS,
  type GeneratedKind,
  type GeneratedLayout,
  type GeneratedOutput,
  type GenerateOutputOptions,
  generateBinary,
  generateOutputBlocks,
  generateOutputText,
} from "../core/synthetic/generate.js";
