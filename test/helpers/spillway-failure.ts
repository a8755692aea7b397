import { isSpillwayError, type SpillwayError } from "../../src/core/errors.js";

/** The SpillwayError `run` throws; any other outcome fails the test. */
export function failureOf(run: () => unknown): SpillwayError {
  try {
    run();
  } catch (error) {
    if (isSpillwayError(error)) return error;
    throw error;
  }
  throw new Error("expected a SpillwayError");
}

/** The SpillwayError `run` rejects with; any other outcome fails the test. */
export async function asyncFailureOf(run: () => Promise<unknown>): Promise<SpillwayError> {
  try {
    await run();
  } catch (error) {
    if (isSpillwayError(error)) return error;
    throw error;
  }
  throw new Error("expected a SpillwayError");
}
