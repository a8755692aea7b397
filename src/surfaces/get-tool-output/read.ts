import { readOutput } from "../../retrieval/read-output.js";
import type { SurfaceContext } from "../surface.js";

/** Reads the output `id` within the call's scope: the one read every mode goes through. */
export function readerFor(id: string, context: SurfaceContext) {
  return <R extends Parameters<typeof readOutput>[3]>(request: R) =>
    readOutput(context.outputs, id, context.scope, request);
}
