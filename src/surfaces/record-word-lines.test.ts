/**
 * The best record's header names where the record holds the task's words its found lines do not
 * (SW-50): the search finds the thing a question names, the line holding what it asks of that
 * thing is elsewhere in the record.
 */
import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { defaultHandleMessage } from "./handle-message.js";

/** A pod list: many pods, each on its node, with a host and a pod address. */
function podList(): string {
  const pods = Array.from({ length: 80 }, (_, i) => {
    const app = ["catalog", "search", "checkout", "cart"][i % 4]!;
    return [
      "- apiVersion: v1",
      "  kind: Pod",
      "  metadata:",
      `    name: ${app}-7d9f-${String(i).padStart(3, "0")}`,
      "    labels:",
      `      app: ${app}`,
      "  spec:",
      "    containers:",
      `    - image: registry.example.com/shop/${app}:1.${i}.0`,
      `      name: ${app}`,
      `    nodeName: node-${String(i).padStart(3, "0")}x`,
      "  status:",
      `    hostIP: 10.1.${i}.1`,
      "    phase: Running",
      `    podIP: 10.244.${i}.${i + 2}`,
    ].join("\n");
  });
  return ["apiVersion: v1", "items:", ...pods, "kind: List", ""].join("\n");
}

/** Windows security events, some failed logons, each with its account and source address. */
function events(): string {
  return Array.from({ length: 60 }, (_, i) => {
    const failed = i % 3 === 0;
    return [
      `Event[${i}]:`,
      "  Log Name: Security",
      `  Event ID: ${failed ? 4625 : 4624}`,
      "  Description:",
      failed ? "An account failed to log on." : "An account was successfully logged on.",
      "",
      "Account For Which Logon Failed:",
      `\tAccount Name:\t\tuser${String(i).padStart(2, "0")}`,
      "\tAccount Domain:\t\tCORP",
      "",
      "Network Information:",
      `\tWorkstation Name:\tWS-${1000 + i}`,
      `\tSource Network Address:\t10.20.${i}.${i + 9}`,
      "\tSource Port:\t\t0",
      "",
    ].join("\n");
  }).join("\n");
}

const header = (message: string) => /\n {2}\[record: [^\n]*\]\n/.exec(message)?.[0] ?? "";

describe("the best record's lines holding the task's other words", () => {
  it("names the pod's address line, which the search did not find, with its words", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin("fs__read_text_file", "{}"), podList());
    const taskText = "On node node-041x, what IP does the catalog pod have?";
    const message = await defaultHandleMessage(record, store, SCOPE, 5, {
      taskText,
      taskRecord: true,
      recordWordLines: true,
    });
    const podIpLine = podList().split("\n").indexOf("    podIP: 10.244.41.43") + 1;
    expect(podIpLine).toBeGreaterThan(0);
    const shownHeader = header(message);
    expect(shownHeader).toContain("the search found line");
    // The pod's own address line is named with the words it holds, heaviest first.
    expect(shownHeader).toMatch(
      new RegExp(
        `the rest of your task's words: line ${podIpLine.toLocaleString("en-US")} \\((ip, pod|pod, ip)\\)`,
      ),
    );
    // At most three lines, each adding a word the ones before it did not name.
    const named = shownHeader.match(/line [\d,]+ \(/g) ?? [];
    expect(named.length).toBeLessThanOrEqual(3);
  });

  it("names no line the search found, and only words the found lines do not hold", async () => {
    const { store } = await tempStore();
    const text = events();
    const record = await store.put(origin("fs__read_text_file", "{}"), text);
    const message = await defaultHandleMessage(record, store, SCOPE, 5, {
      taskText: "Failed logon, account user27, workstation WS-1027: which source address?",
      taskRecord: true,
      recordWordLines: true,
    });
    const lineOf = (wanted: string) =>
      (text.split("\n").indexOf(wanted) + 1).toLocaleString("en-US");
    const shownHeader = header(message);
    const found = /the search found lines? ([\d, ]+?)(;|\])/.exec(shownHeader)?.[1] ?? "";
    // The address line holds the task's rarest words: the search found it, so it is not named again.
    expect(found.split(", ")).toContain(lineOf("\tSource Network Address:\t10.20.27.36"));
    const rest = shownHeader.split("the rest of your task's words: ")[1] ?? "";
    // The event's own "Account For Which Logon Failed:", six lines above its address.
    const address = text.split("\n").indexOf("\tSource Network Address:\t10.20.27.36") + 1;
    expect(rest).toContain(`line ${(address - 6).toLocaleString("en-US")} (logon, failed)`);
    for (const line of found.split(", ")) expect(rest).not.toContain(`line ${line} (`);
    // Words a found line holds (account, source, address) are not named.
    expect(rest).not.toMatch(/account|source|address/);
  });

  it("is left out with its switch off, and names nothing for a table row", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin("fs__read_text_file", "{}"), podList());
    const taskText = "On node node-041x, what IP does the catalog pod have?";
    const off = await defaultHandleMessage(record, store, SCOPE, 5, {
      taskText,
      taskRecord: true,
    });
    expect(header(off)).toContain("the search found line");
    expect(off).not.toContain("the rest of your task's words");

    const csv = [
      "sku,warehouse,quantity",
      ...Array.from({ length: 300 }, (_, i) => `SKU-${1000 + i},WH-${i % 7},${i * 3}`),
    ].join("\n");
    const table = await store.put(origin("fs__read_text_file", "{}"), csv);
    const row = await defaultHandleMessage(table, store, SCOPE, 5, {
      taskText: "Which warehouse holds SKU-1123?",
      taskRecord: true,
      recordWordLines: true,
    });
    expect(row).toContain("SKU-1123");
    expect(row).not.toContain("the rest of your task's words");
  });
});
