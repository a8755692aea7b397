/** `outputs list`, `outputs show` and `outputs verify`: what is stored, and is it intact. */
import type { OutputStatus } from "../store/output-store.js";
import { type CliContext, OWNER_SCOPE, withStore } from "./context.js";
import { EXIT_ERROR, EXIT_OK } from "./errors.js";
import { fields, formatBytes, formatCount, recordFields, recordTable } from "./format.js";
import { renderSynopsis, synopsisOf } from "./synopsis.js";

export interface ListOptions {
  readonly session?: string;
  readonly status?: OutputStatus;
  readonly limit?: number;
  readonly offset?: number;
}

export async function listOutputs(context: CliContext, options: ListOptions): Promise<number> {
  const records = await withStore(context, (store) =>
    store.list({
      ...(options.session !== undefined ? { sessionId: options.session } : {}),
      ...(options.status !== undefined ? { status: options.status } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(options.offset !== undefined ? { offset: options.offset } : {}),
    }),
  );
  if (context.json) {
    await context.out.json(records);
    return EXIT_OK;
  }
  if (records.length === 0) {
    const filtered = options.session !== undefined || options.status !== undefined;
    await context.out.lines([`No outputs${filtered ? " match" : " stored"} in ${context.home}.`]);
    return EXIT_OK;
  }
  await context.out.lines(recordTable(records));
  const limit = options.limit ?? 100;
  if (records.length === limit) {
    const next = (options.offset ?? 0) + limit;
    context.out.note(`# ${limit} shown; more may exist: add --offset ${next} for the next ones`);
  }
  return EXIT_OK;
}

export async function showOutput(context: CliContext, id: string): Promise<number> {
  const { record, synopsis } = await withStore(context, async (store) => {
    const found = await store.get(id, OWNER_SCOPE);
    return { record: found, synopsis: await synopsisOf(store, found) };
  });
  if (context.json) {
    await context.out.json({ record, synopsis });
    return EXIT_OK;
  }
  await context.out.lines([...fields(recordFields(record)), "", ...renderSynopsis(synopsis)]);
  return EXIT_OK;
}

export async function verifyOutput(context: CliContext, id: string): Promise<number> {
  const result = await withStore(context, (store) => store.verify(id, OWNER_SCOPE));
  if (context.json) {
    await context.out.json(result);
  } else if (result.ok) {
    await context.out.lines([
      `ok ${result.id}: ${formatCount(result.byteSize)} bytes (${formatBytes(result.byteSize)}) ` +
        `hash to the recorded sha256 ${result.expectedSha256}`,
    ]);
  } else {
    await context.out.lines([
      `mismatch ${result.id}: the stored bytes do not hash to the recorded sha256`,
      ...fields(
        [
          ["expected", result.expectedSha256],
          ["actual", result.actualSha256],
          ["bytes", formatCount(result.byteSize)],
        ],
        "  ",
      ),
    ]);
  }
  return result.ok ? EXIT_OK : EXIT_ERROR;
}
