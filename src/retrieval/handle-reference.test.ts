import { createHash } from "node:crypto";
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCOPE, SESSION, tempStore } from "../../test/helpers/temp-store.js";
import { isSpillwayError, type SpillwayError } from "../core/errors.js";
import {
  handleReferenceUri,
  parseHandleReference,
  resolveHandleReference,
} from "./handle-reference.js";
import { substituteHandleReferences } from "./substitute-references.js";

const origin = { sessionId: SESSION, toolName: "read", toolArgs: "{}" };
const sha = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

async function rejection(promise: Promise<unknown>): Promise<SpillwayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isSpillwayError(error)) throw new Error(`expected a SpillwayError, got ${String(error)}`);
  return error;
}

describe("parseHandleReference", () => {
  it("parses whole outputs and ranges, and formats them back", () => {
    expect(parseHandleReference("spillway://outputs/out_5k2v9w1q")).toEqual({
      uri: "spillway://outputs/out_5k2v9w1q",
      outputId: "out_5k2v9w1q",
    });
    for (const [uri, range] of [
      ["spillway://outputs/out_5k2v9w1q?lines=100-200", { unit: "lines", start: 100, end: 200 }],
      ["spillway://outputs/out_5k2v9w1q?lines=7-", { unit: "lines", start: 7 }],
      ["spillway://outputs/out_5k2v9w1q?chars=0-4000", { unit: "chars", start: 0, end: 4000 }],
    ] as const) {
      const parsed = parseHandleReference(uri);
      expect(parsed?.range).toEqual(range);
      expect(handleReferenceUri("out_5k2v9w1q", parsed?.range)).toBe(uri);
    }
  });

  it("leaves other strings alone and names what is wrong with a malformed reference", () => {
    expect(parseHandleReference("out_5k2v9w1q")).toBeUndefined();
    expect(parseHandleReference("see spillway://outputs/out_5k2v9w1q")).toBeUndefined();
    for (const [uri, problem] of [
      ["spillway://outputs/nope", '"nope" is not an output id'],
      ["spillway://outputs/out_5k2v9w1q?lines=0-3", "lines start at 1"],
      ["spillway://outputs/out_5k2v9w1q?lines=5-4", "the range ends (4) before it starts (5)"],
      [
        "spillway://outputs/out_5k2v9w1q?bytes=1-2",
        'the range "?bytes=1-2" is not lines=A-B or chars=A-B',
      ],
    ]) {
      let error: unknown;
      try {
        parseHandleReference(uri as string);
      } catch (e) {
        error = e;
      }
      expect(isSpillwayError(error, "INVALID_ARGUMENT")).toBe(true);
      expect((error as Error).message).toContain(problem as string);
      expect((error as Error).message).toContain(JSON.stringify(uri));
    }
  });
});

describe("resolveHandleReference", () => {
  it("returns the exact stored bytes, whole or by lines and characters, with their SHA-256", async () => {
    const { store } = await tempStore();
    const text = "alpha\nbeta 😀\ngamma\n";
    const record = await store.put(origin, text);
    const whole = await resolveHandleReference(
      store,
      parseHandleReference(handleReferenceUri(record.id))!,
      SCOPE,
      { maxBytes: 1000 },
    );
    expect(whole.text).toBe(text);
    expect(whole.sha256).toBe(record.sha256);
    expect(whole).toMatchObject({
      byteStart: 0,
      byteEnd: Buffer.byteLength(text),
      lineStart: 1,
      lineEnd: 3,
    });
    const lines = await resolveHandleReference(
      store,
      parseHandleReference(`spillway://outputs/${record.id}?lines=2-3`)!,
      SCOPE,
      { maxBytes: 1000 },
    );
    expect(lines.text).toBe("beta 😀\ngamma\n");
    expect(lines.sha256).toBe(sha("beta 😀\ngamma\n"));
    expect(lines).toMatchObject({ lineStart: 2, lineEnd: 3, byteStart: 6 });
    const open = await resolveHandleReference(
      store,
      parseHandleReference(`spillway://outputs/${record.id}?lines=3-`)!,
      SCOPE,
      { maxBytes: 1000 },
    );
    expect(open.text).toBe("gamma\n");
    const chars = (range: string) =>
      resolveHandleReference(
        store,
        parseHandleReference(`spillway://outputs/${record.id}?chars=${range}`)!,
        SCOPE,
        { maxBytes: 1000 },
      );
    // The emoji is a surrogate pair, characters 11 and 12: a range never splits it.
    expect((await chars("6-13")).text).toBe("beta 😀");
    expect((await chars("6-12")).text).toBe("beta ");
  });

  it("refuses more than maxBytes, naming the limit, and ranges outside the output", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin, "x".repeat(5000));
    const tooLarge = await rejection(
      resolveHandleReference(store, parseHandleReference(handleReferenceUri(record.id))!, SCOPE, {
        maxBytes: 4096,
        limitName: "--max-reference-bytes",
      }),
    );
    expect(tooLarge.code).toBe("OUTPUT_TOO_LARGE");
    expect(tooLarge.message).toContain(
      "names 5,000 bytes, over the limit of 4,096 bytes (--max-reference-bytes)",
    );
    expect(tooLarge.details).toMatchObject({ limit: 4096, limitUnit: "bytes" });
    const outside = await rejection(
      resolveHandleReference(
        store,
        parseHandleReference(`spillway://outputs/${record.id}?lines=5-6`)!,
        SCOPE,
        { maxBytes: 10_000 },
      ),
    );
    expect(outside.code).toBe("INVALID_RANGE");
    expect(outside.message).toContain("valid is 1..1");
    const otherSession = await rejection(
      resolveHandleReference(
        store,
        parseHandleReference(handleReferenceUri(record.id))!,
        {
          sessionId: "ses_other",
        },
        { maxBytes: 10_000 },
      ),
    );
    expect(otherSession.code).toBe("OUTPUT_NOT_FOUND");
  });

  it("passes binary outputs whole as base64 and refuses a range of them", async () => {
    const { store } = await tempStore();
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const record = await store.put(origin, bytes, { binary: true, mediaType: "image/png" });
    const whole = await resolveHandleReference(
      store,
      parseHandleReference(handleReferenceUri(record.id))!,
      SCOPE,
      { maxBytes: 100 },
    );
    expect(whole).toMatchObject({
      encoding: "base64",
      text: bytes.toString("base64"),
      mediaType: "image/png",
    });
    const range = await rejection(
      resolveHandleReference(
        store,
        parseHandleReference(`spillway://outputs/${record.id}?chars=0-2`)!,
        SCOPE,
        { maxBytes: 100 },
      ),
    );
    expect(range.code).toBe("UNSUPPORTED_KIND");
  });

  it("detects stored bytes that no longer match their SHA-256", async () => {
    const { store, home } = await tempStore();
    const record = await store.put(origin, "y".repeat(40_000));
    // 40 KB is over the store's inline limit: the bytes live in a content-addressed blob file.
    const path = join(home, "blobs", record.sha256!.slice(0, 2), record.sha256!);
    await chmod(path, 0o600);
    await writeFile(path, "z".repeat(40_000));
    const error = await rejection(
      resolveHandleReference(store, parseHandleReference(handleReferenceUri(record.id))!, SCOPE, {
        maxBytes: 100_000,
      }),
    );
    expect(error.code).toBe("STORE_CORRUPT");
    expect(error.message).toContain(`Output ${record.id} does not match its SHA-256`);
  });
});

describe("substituteHandleReferences", () => {
  it("replaces every whole-string reference, at any depth, sharing one byte budget", async () => {
    const { store } = await tempStore();
    const a = await store.put(origin, "AAAA\nBBBB\n");
    const b = await store.put(origin, "cccc");
    const args = {
      path: "copy.txt",
      content: handleReferenceUri(a.id),
      nested: { list: [`spillway://outputs/${a.id}?lines=2-2`, 7, handleReferenceUri(b.id)] },
      mention: `see ${handleReferenceUri(b.id)}`,
    };
    const result = await substituteHandleReferences(args, store, SCOPE, { maxBytes: 100 });
    expect(result.value).toEqual({
      path: "copy.txt",
      content: "AAAA\nBBBB\n",
      nested: { list: ["BBBB\n", 7, "cccc"] },
      mention: `see ${handleReferenceUri(b.id)}`,
    });
    expect(result.substitutions.map((s) => s.path)).toEqual([
      "$.content",
      "$.nested.list[0]",
      "$.nested.list[2]",
    ]);
    expect(result.bytes).toBe(10 + 5 + 4);
    // Arguments without references come back as the same object.
    const plain = { a: 1 };
    expect((await substituteHandleReferences(plain, store, SCOPE, { maxBytes: 1 })).value).toBe(
      plain,
    );
    const over = await rejection(
      substituteHandleReferences(args, store, SCOPE, {
        maxBytes: 12,
        limitName: "--max-reference-bytes",
      }),
    );
    expect(over.code).toBe("OUTPUT_TOO_LARGE");
    expect(over.message).toMatch(
      /^Argument \$\.nested\.list\[0\]: together with the 10 bytes of earlier handle references/,
    );
  });
});
