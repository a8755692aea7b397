import type { OutputRecord, OutputStore } from "../store/output-store.js";

/** Outputs of the session looked through for an earlier copy: the newest, as a call repeats soon. */
const LOOK_BACK_OUTPUTS = 50;

/**
 * The newest earlier output of the same session that the same tool returned for the same
 * arguments (key order aside) with the same bytes, or undefined. A call that repeats one whose
 * result the model was already shown, and gets it again byte for byte, learns nothing from a
 * second copy of the same message; the handle message says so instead (SW-35). Decided from the
 * store alone, so the message is the same whenever it is rendered (a resumed session, a viewer).
 *
 * @example
 * const earlier = await earlierSameOutput(store, record);
 * if (earlier) console.log(`same as ${earlier.id}`);
 */
export async function earlierSameOutput(
  outputs: OutputStore,
  record: OutputRecord,
): Promise<OutputRecord | undefined> {
  if (record.sha256 === null) return undefined;
  const args = canonicalArguments(record.toolArgs);
  const recent = await outputs.list({
    sessionId: record.sessionId,
    status: "ready",
    limit: LOOK_BACK_OUTPUTS,
  });
  return recent.find(
    (other) =>
      other.id !== record.id &&
      other.createdAt < record.createdAt &&
      other.toolName === record.toolName &&
      other.sha256 === record.sha256 &&
      canonicalArguments(other.toolArgs) === args,
  );
}

/** A tool's arguments as JSON with keys in order (`{b,a}` is `{a,b}`); unparsable text as is. */
export function canonicalArguments(argsText: string): string {
  try {
    return JSON.stringify(sortedKeys(JSON.parse(argsText)));
  } catch {
    return argsText;
  }
}

/** A JSON value with every object's keys in order, so equal arguments print the same. */
export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}
