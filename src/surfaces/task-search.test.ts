/**
 * The handle message searches the output for the task's words (SW-27): whatever the task's
 * words look like (plain words, a Japanese key, a numeric id, a possessive), it shows where the
 * output speaks of them, labelled as places to check, and its example calls carry only the
 * task's words the output holds, or no value at all.
 */
import { describe, expect, it } from "vitest";
import { taskSearchSection } from "../../test/helpers/handle-sections.js";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { defaultHandleMessage } from "./handle-message.js";
import { leadGroup, leadingParts } from "./task-search.js";

const filler = (i: number) =>
  `2026-03-14T08:${String(i % 60).padStart(2, "0")}:00Z INFO [svc-${i % 7}] request ${i} served in ${i % 90} ms`;

async function handleFor(
  text: string,
  task: string,
  taskRecord = false,
  path?: string,
): Promise<string> {
  const { store } = await tempStore();
  const args = path ? JSON.stringify({ path }) : "{}";
  const record = await store.put(origin("fs__read_text_file", args), text);
  return defaultHandleMessage(record, store, SCOPE, 5, { taskText: task, taskRecord });
}

/** The values of every example call's pattern or query. */
const exampleValues = (message: string) =>
  [...message.matchAll(/(?<![\w])(?:pattern|query)=("(?:[^"\\]|\\.)*")/g)].map(
    (m) => JSON.parse(m[1]!) as string,
  );

describe("the handle message's search for the task", () => {
  it("finds an upper-case hyphenated token from plain words, and offers those words", async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => filler(i));
    lines[2211] =
      "2026-03-14T09:12:00Z NOTE [boot] BOOT-MARKER-ALPHA reached; handing over to the scheduler";
    const message = await handleFor(
      lines.join("\n"),
      "What does the boot marker note say in app.log?",
    );
    expect(taskSearchSection(message)).toContain(
      "2212| 2026-03-14T09:12:00Z NOTE [boot] BOOT-MARKER-ALPHA reached",
    );
    expect(message).toContain("One of them may answer your task: check it against");
    expect(exampleValues(message)[0]).toMatch(/^(boot marker|marker boot)/);
    expect(message).toContain('slice={"line_start": 2202, "line_end": 2222}');
  });

  it("finds a line of Japanese text from a question in Japanese", async () => {
    const lines = Array.from(
      { length: 2000 },
      (_, i) => `品番: P-${1000 + i}  倉庫: 東京第一  数量: ${i % 50}`,
    );
    lines[1444] = "品番: P-2444  倉庫: 大阪第二  数量: 12  備考: 起動マーカーは再起動後に確認";
    const message = await handleFor(
      lines.join("\n"),
      "起動マーカーについての備考はどの品番ですか?",
    );
    expect(taskSearchSection(message)).toContain("1445| 品番: P-2444  倉庫: 大阪第二");
  });

  it("finds a numeric JSON id, and a possessive leaves no junk word in the examples", async () => {
    const orders = Array.from({ length: 400 }, (_, i) => ({
      id: 40000 + i * 7,
      customer: { email: `c${i}@example.com` },
      status: "paid",
    }));
    const message = await handleFor(
      JSON.stringify(orders, null, 2),
      "What is the customer's email for order 41043?",
    );
    expect(taskSearchSection(message)).toContain('"id": 41043,');
    // Words as the task wrote them, never pieces cut across an apostrophe ("s the customer").
    for (const value of exampleValues(message))
      for (const word of value.split(" "))
        expect(["41043", "customer's", "email", "order"]).toContain(word);
    expect(exampleValues(message)).toContain("41043");
  });

  it("shows no lines when the task's words are on every line, and examples without a value", async () => {
    const log = Array.from({ length: 2000 }, (_, i) => filler(i)).join("\n");
    const message = await handleFor(log, "Which request was served?");
    expect(message).not.toContain("found these lines");
    const common = await handleFor(log, "What is it?");
    expect(common).not.toContain("found these lines");
    expect(common).toContain('mode="search", query)   the lines with the words you give');
    expect(common).toContain('mode="grep", pattern, context)   the lines with an exact text');
    expect(exampleValues(common)).toEqual([]);
  });

  it("never offers a value the task did not write", async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => filler(i));
    lines[99] = "2026-03-14T08:39:00Z ERROR [svc-1] request 99 failed: connection pool exhausted";
    const tasks = [
      "Why did request 99 fail?",
      "Find the pool exhaustion.",
      "What happened at 08:39?",
      "Report the first error.",
    ];
    for (const task of tasks) {
      const message = await handleFor(lines.join("\n"), task);
      for (const value of exampleValues(message))
        for (const word of value.split(" ")) expect(task, `${task}: ${value}`).toContain(word);
    }
  });

  it("shows first the line holding the task's identifier whole, before lines holding its parts apart", async () => {
    const lines = Array.from(
      { length: 400 },
      (_, i) =>
        `08:${String(i % 60).padStart(2, "0")} INFO req=req-${String(i).padStart(6, "0")} ok`,
    );
    // Two stack lines hold "handle" and "request" (camelCase parts); one line holds the id.
    lines[120] = "    at handleRequest (/srv/app/worker.js:880:19)";
    lines[121] = "    at handleRequestRetry (/srv/app/worker.js:912:7)";
    lines[340] = "08:07 INFO req=req-qmldj8 user=u-66287 order=ord-00478 status=200";
    const message = await handleFor(lines.join("\n"), "Which order did request req-qmldj8 handle?");
    const shown = taskSearchSection(message).trim().split("\n").slice(1);
    expect(shown[0]).toContain("341| 08:07 INFO req=req-qmldj8");
    expect(message).toContain('mode="grep", pattern="req-qmldj8"');
  });

  it("finds an identifier written against Japanese text, and shows its line first", async () => {
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `品番: RN-${10000 + i * 3}  倉庫: 東京第一  数量: ${i % 50}`,
    );
    // A few lines say much of the question's Japanese; one holds its identifier.
    for (const at of [100, 900, 1700, 2500])
      lines[at] = `備考: 保管場所の倉庫は変更予定、保管場所を確認 (品番: RN-${10000 + at * 3})`;
    lines[2445] = "品番: RN-17335  倉庫: 大阪第二  数量: 12";
    const message = await handleFor(lines.join("\n"), "品番RN-17335の保管場所の倉庫はどこですか？");
    const shown = taskSearchSection(message).trim().split("\n").slice(1);
    expect(shown[0]).toContain("2446| 品番: RN-17335  倉庫: 大阪第二");
    expect(message).toContain('mode="grep", pattern="RN-17335"');
  });

  it("searches an output of more lines than one grep returns, without failing the message", async () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => filler(i));
    lines[31_000] =
      "2026-03-14T10:00:00Z ERROR [svc-3] request 31000 failed: disk quota exceeded on vol-7";
    const message = await handleFor(lines.join("\n"), "Why did the disk quota fail?");
    expect(taskSearchSection(message)).toContain("31001| 2026-03-14T10:00:00Z ERROR [svc-3]");
  });

  it("shows the best line inside its record, with taskRecord, and does not repeat its lines", async () => {
    const pods = Array.from({ length: 60 }, (_, i) =>
      [
        "- metadata:",
        `    name: api-${i}`,
        "  status:",
        `    reason: ${i === 41 ? "OOMKilled" : "Completed"}`,
        `    image: registry.example/api:${i}`,
      ].join("\n"),
    ).join("\n");
    const task = "Which image did the pod that was OOMKilled run?";
    const message = await handleFor(`${pods}\n`, task, true);
    expect(message).toContain("  [record: list item, lines 206-210; the search found line 209]");
    expect(message).toContain(
      "  206| - metadata:\n  207|     name: api-41\n  208|   status:\n  209|     reason: OOMKilled\n  210|     image: registry.example/api:41",
    );
    expect(message.match(/ {2}209\| /g)).toHaveLength(1);
    // Off: the line alone, its pod's name and image out of sight.
    const off = await handleFor(`${pods}\n`, task, false);
    expect(off).toContain("  209|     reason: OOMKilled");
    expect(off).not.toContain("api-41");
    expect(off).not.toContain("[record:");
  });

  it("widens the record to the enclosing one when it holds more of the task's words and fits", async () => {
    const pods = (padding: number) =>
      Array.from({ length: 30 }, (_, i) =>
        [
          "- kind: Pod",
          "  metadata:",
          `    name: api-${i}`,
          ...Array.from({ length: padding }, (_, k) => `    note${k}: kept for ${i}`),
          "  status:",
          "    containerStatuses:",
          "    - name: main",
          `      reason: ${i === 17 ? "OOMKilled" : "Completed"}`,
          "      restarts: 2",
        ].join("\n"),
      ).join("\n");
    // The pod holds "pod" besides the word found: its item is shown, with the pod's name.
    const widened = await handleFor(`${pods(0)}\n`, "Which pod was OOMKilled?", true);
    expect(taskSearchSection(widened)).toContain("[record: list item, lines 137-144;");
    expect(taskSearchSection(widened)).toContain("  139|     name: api-17\n");
    // No more of the task's words in the pod than in its container: the container alone.
    const inner = await handleFor(`${pods(0)}\n`, "Which entry was OOMKilled?", true);
    expect(taskSearchSection(inner)).toContain("[record: list item, lines 142-144;");
    expect(taskSearchSection(inner)).not.toContain("api-17");
    // A pod over the record's bounds would show only the part around the line: the container.
    const long = await handleFor(`${pods(70)}\n`, "Which pod was OOMKilled?", true);
    expect(taskSearchSection(long)).toMatch(/\[record: list item, lines [\d,]+-[\d,]+; the search/);
    expect(taskSearchSection(long)).toContain("- name: main\n");
    expect(taskSearchSection(long)).not.toContain("api-17");
  });

  it("ranks a table row by its header's names too, and a line by its own words, not its record's", async () => {
    const teams = ["Payments", "Orders", "Search", "Platform", "Identity"];
    const rows = teams.flatMap((team, t) =>
      ["EU", "US", "APAC"].map(
        (region, r) => `| ${team} | ${region} | Person ${t}${r} | @${team.toLowerCase()}-oncall |`,
      ),
    );
    const prose = Array.from(
      { length: 400 },
      (_, i) => `Step ${i}: check the service and note it.`,
    );
    const runbook = [
      "# Runbook",
      "Owner: Platform team",
      "3. [On-call and escalation](#on-call)",
      ...prose.slice(0, 200),
      "## On-call and escalation",
      "",
      "| Team | Region | Primary on-call | Escalation alias |",
      "|------|--------|-----------------|------------------|",
      ...rows,
      "",
      ...prose.slice(200),
    ].join("\n");
    const task =
      "Look up the escalation table: the row with team Platform and region US. Who is the primary?";
    const table = taskSearchSection(await handleFor(`${runbook}\n`, task, true));
    expect(table).toMatch(/^ *\[record: table row, line 218; names from the header, line 206;/m);
    expect(table).toContain("218| Team=Platform, Region=US, Primary on-call=Person 31,");
    // A log: the line with the request's id comes before a stack trace holding more of the
    // task's common words (request, handle, order) across its frames.
    const log = Array.from(
      { length: 300 },
      (_, i) => `${filler(i)} req=req-${1000 + i} order=ord-${5000 + i}`,
    );
    log[100] = `${filler(100)} ERROR req=req-9999 order=ord-1 failed\n    at handleOrder (router.js:3)\n    at retryRequest (pool.js:9)`;
    log[250] = `${filler(250)} req=req-7x7x7 order=ord-24712`;
    const traced = taskSearchSection(
      await handleFor(`${log.join("\n")}\n`, "Which order did request req-7x7x7 handle?", true),
    );
    expect(traced.trim().split("\n")[1]).toContain("req=req-7x7x7 order=ord-24712");
  });

  it("shows a CSV row with its header's names, and a log line alone (its record is the line)", async () => {
    const rows = [
      "id,tracking,city",
      ...Array.from({ length: 80 }, (_, i) => `S${i},TR${1000 + i},City${i}`),
    ];
    const csv = await handleFor(`${rows.join("\n")}\n`, "Where did TR1044 go?", true);
    expect(csv).toContain(
      "[record: CSV row, line 46; names from the header, line 1; the search found line 46]",
    );
    expect(csv).toContain("  46| id=S44, tracking=TR1044, city=City44");
    const md = [
      "| Team | Region | Primary |",
      "|---|---|---|",
      ...Array.from({ length: 80 }, (_, i) => `| T${i} | ${i % 2 ? "EU" : "US"} | P${1000 + i} |`),
    ];
    const table = await handleFor(
      `${md.join("\n")}\n`,
      "Who is on call for T45?",
      true,
      "runbook.md",
    );
    expect(table).toContain(
      "[record: table row, line 48; names from the header, line 1; the search found line 48]",
    );
    expect(table).toContain("  48| Team=T45, Region=EU, Primary=P1045");
    const log = Array.from(
      { length: 80 },
      (_, i) => `2026-01-01T00:00:${i % 60}Z INFO req=r${i} ok`,
    );
    const plain = await handleFor(`${log.join("\n")}\n`, "What did r44 return?", true);
    expect(plain).not.toContain("[record:");
    expect(plain).toContain("  45| 2026-01-01T00:00:44Z INFO req=r44 ok");
  });

  it("shows the object inside a one-line JSON document that holds the task's least frequent word", async () => {
    const orders = Array.from({ length: 200 }, (_, i) => ({
      id: 5000 + i,
      status: i === 150 ? "refunded" : "packed",
      total: (i * 7) % 90,
    }));
    const message = await handleFor(
      JSON.stringify({ data: orders }),
      'Find the first order with status "refunded" and tell me its id.',
      true,
    );
    expect(message).toMatch(
      / {2}\[record: JSON object, line 1, chars [\d,]+-[\d,]+; the search found line 1\]\n {2}1\| \{"id":5150,"status":"refunded","total":60\}/,
    );
  });

  it("does not search the task's path of the file in it (a `data` key is not what was asked)", async () => {
    const orders = Array.from({ length: 200 }, (_, i) => ({
      id: 5000 + i,
      status: i === 150 || i === 170 ? "refunded" : "packed",
      total: (i * 7) % 90,
    }));
    const message = await handleFor(
      JSON.stringify({ data: orders }),
      'Find the first order with status "refunded" in data/export.json and tell me its id.',
      true,
      "data/export.json",
    );
    expect(message).toContain('1| {"id":5150,"status":"refunded","total":60}');
    expect(exampleValues(message).join(" ")).not.toContain("data/export.json");
  });

  it("shows a long line that is its own record whole, with taskRecord, and offers the word the task wrote without its suffix", async () => {
    const events = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({
        ts: `2026-05-19T07:${String(i % 60).padStart(2, "0")}:00Z`,
        trace_id: String.fromCharCode(97 + (i % 26)).repeat(32),
        span_id: String.fromCharCode(97 + (i % 26)).repeat(16),
        level: "info",
        http: { method: "POST", path: i % 2 ? "/api/checkout" : "/api/cart" },
        duration_ms: 1000 + i,
        user: { email: `user${i === 139 ? 137 : i}@mail.example.net` },
      }),
    );
    const task = "What duration was logged for user137@mail.example.net's checkout request?";
    const whole = await handleFor(`${events.join("\n")}\n`, task, true);
    // The line is longer than a search line's cut: its fields past the cut are shown too.
    expect(events[137]!.length).toBeGreaterThan(200);
    expect(whole).toContain(`  138| ${events[137]}`);
    // The other line of the same user is its own record too: the lines share the bound.
    expect(whole).toContain(`  140| ${events[139]}`);
    expect(exampleValues(whole)).toContain("user137@mail.example.net");
    const cut = await handleFor(`${events.join("\n")}\n`, task, false);
    expect(cut).not.toContain(`  138| ${events[137]}`);
    // Cut around the task's rarest word, so the part asked about stays in view.
    expect(cut).toMatch(/ {2}138\| ….*user137@mail\.example\.net/);
  });
});

describe("leadGroup", () => {
  it("leads with a word the search splits into parts, not with a plain word", () => {
    const group = leadGroup(["req-4hpi75", "memory"]);
    expect(group("req=req-4hpi75 order=ord-1")).toBe(0);
    expect(group("memory: 512Mi")).toBe(1);
  });
});

describe("leadingParts", () => {
  it("gives the word, then its leading parts cut at punctuation that keep half of it", () => {
    expect(leadingParts("user@example.net's")).toEqual([
      "user@example.net's",
      "user@example.net",
      "user@example",
    ]);
    expect(leadingParts("INV-1.pdf,")).toEqual(["INV-1.pdf,", "INV-1.pdf", "INV-1"]);
    expect(leadingParts("plain")).toEqual(["plain"]);
    expect(leadingParts("a.b")).toEqual(["a.b"]);
  });
});

describe("the handle message's synopsis beside the task search", () => {
  it("leaves out a first or last line the search already shows, and keeps the others", async () => {
    const lines = Array.from({ length: 500 }, (_, i) => filler(i));
    lines[497] = "2026-03-14T09:12:00Z ERROR [pay] gateway timeout code=E-7731";
    const message = await handleFor(lines.join("\n"), "Which code did the gateway timeout log?");
    const row = "  498| 2026-03-14T09:12:00Z ERROR [pay] gateway timeout code=E-7731";
    expect(message.split(row)).toHaveLength(2);
    expect(taskSearchSection(message)).toContain(row);
    const synopsis = message.split("\nLast lines:\n")[1]!;
    expect(synopsis).toContain("  497| ");
    expect(synopsis).toContain("  499| ");
    expect(synopsis).not.toContain("  498| ");
  });
});
