/**
 * The handle message's search ranks an HTML table row by its header's names, as it does a CSV
 * row (SW-32): "catalog-api in us-west-2, p95?" holds the column's name, which only the header
 * line says; the row that answers says `catalog-api`, `us-west-2` and `651 ms`.
 */
import { describe, expect, it } from "vitest";
import { taskSearchSection } from "../../test/helpers/handle-sections.js";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { defaultHandleMessage } from "./handle-message.js";

const services = ["checkout-api", "catalog-api", "search-api", "payments-api", "auth-api"];
const regions = ["eu-central-1", "us-west-2", "ap-south-1"];

function statusPage(): string {
  const rows = regions.flatMap((region, r) =>
    services.map(
      (name, s) => `          <tr data-region="${region}">
            <td class="name">${name}</td>
            <td class="region">${region}</td>
            <td class="latency">${100 + r * 50 + s} ms</td>
          </tr>`,
    ),
  );
  const prose = Array.from({ length: 300 }, (_, i) => `    <p>Incident note ${i}: resolved.</p>`);
  return [
    "<!doctype html>",
    "<html>",
    "  <body>",
    ...prose,
    "    <table>",
    "      <thead>",
    "        <tr><th>Service</th><th>Region</th><th>p95 latency</th></tr>",
    "      </thead>",
    "      <tbody>",
    ...rows,
    "      </tbody>",
    "    </table>",
    "  </body>",
    "</html>",
    "",
  ].join("\n");
}

describe("the task search in an HTML table", () => {
  it("shows the row the task names with its header, not the header line alone", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin("fs__read_text_file", "{}"), statusPage());
    const message = await defaultHandleMessage(record, store, SCOPE, 5, {
      taskText: "catalog-api in us-west-2: p95?",
      taskRecord: true,
    });
    const section = taskSearchSection(message);
    expect(section).toMatch(
      /\[record: block, lines [\d,]+-[\d,]+; names from the header, line 306;/,
    );
    expect(section).toContain('<td class="latency">151 ms</td>');
  });

  it("does not put every row ahead of the line holding the task's rarest word for a plain word its header holds", async () => {
    const { store } = await tempStore();
    const page = statusPage()
      .replace("<th>Region</th>", "<th>Region</th><th>Status</th>")
      .replaceAll(
        /(<td class="region">[^<]*<\/td>)/g,
        '$1\n            <td class="status">Operational</td>',
      )
      .replace(
        "  </body>",
        "    <p>Resolved: we rotated the TLS terminators after the upstream fix for CVE-2026-23381.</p>\n  </body>",
      );
    const record = await store.put(origin("fs__read_text_file", "{}"), page);
    const message = await defaultHandleMessage(record, store, SCOPE, 5, {
      taskText: "Which CVE does the status page mention?",
      taskRecord: true,
    });
    const section = taskSearchSection(message);
    expect(section).toContain("CVE-2026-23381");
  });
});
