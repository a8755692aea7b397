/**
 * The handle message's places holding a value of a form the task names (the `formLines`
 * switch): found by the form's shape, not its name; listed only when few places hold one; no
 * section when the task names no form or the switch is off.
 */
import { describe, expect, it } from "vitest";
import { SCOPE, SESSION, tempStore } from "../../test/helpers/temp-store.js";
import { formLines, formSectionLines, MAX_FORM_PLACES } from "./form-lines.js";
import { defaultHandleMessage } from "./handle-message.js";

/** An application log of IPv4 clients, one of them an IPv6 address on line 313. */
const APP_LOG = Array.from({ length: 500 }, (_, i) => {
  const client = i === 312 ? "2001:db8:b2c1:e8f2::c207" : `10.1.${i % 200}.${(i * 7) % 250}`;
  return `2026-03-14T08:${String(i % 60).padStart(2, "0")}:00Z INFO [api] request ${i} from ${client} done in 12 ms`;
}).join("\n");

async function stored(text: string, path = "app.log") {
  const { store } = await tempStore();
  const record = await store.put(
    { sessionId: SESSION, toolName: "fs__read_text_file", toolArgs: JSON.stringify({ path }) },
    text,
  );
  return { store, record };
}

describe("formLines", () => {
  it("finds the one value of the form the task names, though the output never names it", async () => {
    const { store, record } = await stored(APP_LOG);
    const found = await formLines(store, record, SCOPE, "One client used IPv6. Which address?");
    expect(found).toHaveLength(1);
    expect(found[0]?.form.name).toBe("IPv6 address");
    expect(found[0]?.count).toBe(1);
    expect(found[0]?.places).toEqual([{ line: 313, text: expect.stringContaining("::c207") }]);
  });

  it("leaves out a form held in many places: an IPv4 address on every line points nowhere", async () => {
    const { store, record } = await stored(APP_LOG);
    const found = await formLines(store, record, SCOPE, "Which IP address sent request 40?");
    // "IP address" names both families: IPv4 is on 499 lines, IPv6 on one.
    expect(found.map((f) => f.form.name)).toEqual(["IPv6 address"]);
  });

  it("counts up to the limit and shows the first five, in the output's order", async () => {
    const lines = Array.from({ length: 300 }, (_, i) =>
      i % 40 === 7 ? `row ${i} key ${String(i).padStart(13, "4")}` : `row ${i} key AB-${i}`,
    );
    const { store, record } = await stored(lines.join("\n"), "notes.txt");
    const [found] = await formLines(store, record, SCOPE, "Which 13-digit code is listed?");
    expect(found?.count).toBe(8);
    expect(found?.places.map((p) => p.line)).toEqual([8, 48, 88, 128, 168]);
    expect(formSectionLines([found!])[1]).toBe(
      "Your task names a value by its form (13-digit number). 8 places in this output hold one (the first 5 shown, in their order):",
    );
    const many = Array.from({ length: MAX_FORM_PLACES + 1 }, (_, i) => `code ${1000000000000 + i}`);
    const crowded = await stored(many.join("\n"), "codes.txt");
    expect(
      await formLines(crowded.store, crowded.record, SCOPE, "Which 13-digit code is it?"),
    ).toEqual([]);
  });

  it("finds values apart on one long line, and none in a task that names no form", async () => {
    const rows = Array.from({ length: 400 }, (_, i) => ({
      id: i,
      key: i === 250 ? "46abf9fe-67da-4e1c-a0c2-f09f8b409d27" : `ik_${i}`,
    }));
    const { store, record } = await stored(JSON.stringify(rows), "rows.json");
    const [found] = await formLines(store, record, SCOPE, "Which key is a UUID?");
    expect(found?.count).toBe(1);
    expect(found?.places[0]?.line).toBe(1);
    expect(found?.places[0]?.text).toContain('"key":"46abf9fe-67da-4e1c-a0c2-f09f8b409d27"');
    expect(await formLines(store, record, SCOPE, "Which row has id 250?")).toEqual([]);
  });

  it("reads no form out of the path the call read", async () => {
    const { store, record } = await stored(APP_LOG, "logs/ipv6/app.log");
    expect(await formLines(store, record, SCOPE, "What failed in logs/ipv6/app.log?")).toEqual([]);
  });
});

describe("the handle message's form section", () => {
  const options = { taskRecord: true, taskFocus: true, thresholdLines: true } as const;
  const messageFor = (
    { store, record }: Awaited<ReturnType<typeof stored>>,
    taskText: string,
    formLinesOn: boolean,
  ) =>
    defaultHandleMessage(record, store, SCOPE, 5, {
      ...options,
      formLines: formLinesOn,
      taskText,
    });

  it("lists the place with the switch on and adds nothing with it off", async () => {
    const log = await stored(APP_LOG);
    const task = "One client used IPv6. Which address?";
    const on = await messageFor(log, task, true);
    expect(on).toContain(
      "Your task names a value by its form (IPv6 address). One place in this output holds one:",
    );
    expect(on).toContain("  313| 2026-03-14T08:12:00Z INFO [api] request 312 from 2001:db8:");
    const off = await messageFor(log, task, false);
    expect(off).not.toContain("Your task names a value by its form");
    // A task that names no form gets the same message either way.
    const plain = "What happened to request 40?";
    expect(await messageFor(log, plain, true)).toBe(await messageFor(log, plain, false));
  });
});
