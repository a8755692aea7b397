/**
 * Ids for the live benchmark's stores drawn from the task instead of at random: a task's
 * session gets the same output ids in every run of it, so an ablation's two runs show the model
 * the same text until the behaviour makes them differ. The product's own ids stay random (a
 * handle must not be guessable from another); these live only in the benchmark's own stores.
 */
import { createHash } from "node:crypto";
import { base32, type IdGenerator } from "../../src/core/ids.js";

/**
 * An id generator for one task's session: the n-th id of a prefix is the same in every run.
 *
 * @example
 * const ids = taskIds("275848-07");
 * ids("out"); // "out_…" (26 characters, the same first id in every run of 275848-07)
 */
export function taskIds(taskId: string): IdGenerator {
  const drawn = new Map<string, number>();
  return (prefix) => {
    const n = drawn.get(prefix) ?? 0;
    drawn.set(prefix, n + 1);
    const digest = createHash("sha256").update(`${taskId}\n${prefix}\n${n}`).digest();
    return `${prefix}_${base32(digest.subarray(0, 16))}`;
  };
}
