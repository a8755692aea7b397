/**
 * A row of an HTML table comes with its table's header row, as a CSV row does: the row's cells
 * say nothing of which column they are in (SW-32).
 */
import { describe, expect, it } from "vitest";
import { checkedRecord } from "./fixtures/record-harness.js";

const row = (name: string, region: string, latency: string) => `      <tr>
        <td class="name">${name}</td>
        <td class="region">${region}</td>
        <td class="latency">${latency}</td>
      </tr>`;

/** Two tables, the second with its header cells one per line; a list between them. */
const STATUS_PAGE = `<!doctype html>
<html lang="en">
  <body>
    <table id="services">
      <thead>
        <tr><th>Service</th><th>Region</th><th>p95 latency</th></tr>
      </thead>
      <tbody>
${row("checkout-api", "eu-central-1", "286 ms")}
${row("catalog-api", "us-west-2", "651 ms")}
      </tbody>
    </table>
    <ul>
      <li>All times are UTC</li>
    </ul>
    <table id="queues">
      <tr>
        <th>Queue</th>
        <th>Depth</th>
      </tr>
${row("orders", "eu-west-1", "12")}
    </table>
    <table id="plain">
${row("mailer", "ap-south-1", "40 ms")}
    </table>
  </body>
</html>
`;

describe("HTML table rows", () => {
  it("a match in a row brings the row with its table's header names", async () => {
    const { record, opened } = await checkedRecord(STATUS_PAGE, "catalog-api");
    expect(opened.record.kind).toBe("html");
    expect(record.text).toContain("651 ms");
    expect(record.text).not.toContain("286 ms");
    expect(record.header?.names).toEqual(["Service", "Region", "p95 latency"]);
    expect(record.header?.text).toBe(
      "        <tr><th>Service</th><th>Region</th><th>p95 latency</th></tr>",
    );
  });

  it("takes the header of the row's own table, over several lines", async () => {
    const { record } = await checkedRecord(STATUS_PAGE, "eu-west-1");
    expect(record.header?.names).toEqual(["Queue", "Depth"]);
    expect(record.header?.provenance.lineStart).toBe(record.lineStart - 4 + 1);
  });

  it("finds the header of a long table, hundreds of lines above the row", async () => {
    const rows = Array.from({ length: 150 }, (_, i) => row(`svc-${i}`, "eu-north-1", `${i} ms`));
    const page = STATUS_PAGE.replace("      </tbody>", `${rows.join("\n")}\n      </tbody>`);
    const { record } = await checkedRecord(page, "svc-140<");
    expect(record.lineStart).toBeGreaterThan(700);
    expect(record.header?.names).toEqual(["Service", "Region", "p95 latency"]);
  });

  it("gives no header to a row of a table that has none, nor to the header row itself", async () => {
    expect((await checkedRecord(STATUS_PAGE, "ap-south-1")).record.header).toBeUndefined();
    expect((await checkedRecord(STATUS_PAGE, "p95 latency")).record.header).toBeUndefined();
  });
});
