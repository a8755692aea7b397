import { readOutput } from "../../retrieval/read-output.js";
import type { OpenedOutput } from "../../store/output-store.js";
import type { SurfaceContext } from "../surface.js";

/** Reads the output `id` within the call's scope: the one read every mode goes through. */
export function readerFor(id: string, context: SurfaceContext) {
  return <R extends Parameters<typeof readOutput>[3]>(request: R) =>
    readOutput(context.outputs, id, context.scope, request);
}

/**
 * Opens the output `id` within the call's scope for several reads (records around matches),
 * runs `use`, and closes it.
 */
export async function withOpened<T>(
  id: string,
  context: SurfaceContext,
  use: (opened: OpenedOutput) => Promise<T>,
): Promise<T> {
  const opened = await context.outputs.open(id, context.scope);
  try {
    return await use(opened);
  } finally {
    await opened.close();
  }
}
