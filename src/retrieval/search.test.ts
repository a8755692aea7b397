import { describe, expect, it } from "vitest";
import { errorOf, openText, SCOPE } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { readOutput } from "./read-output.js";
import { type SearchResult, searchOutput } from "./search.js";

/** Filler log lines with common words only. */
function filler(count: number, words = "service request completed ok"): string[] {
  return Array.from({ length: count }, (_, i) => `2026-01-01T00:00:${i % 60} INFO ${words} ${i}`);
}

/** Every match's text is exactly the stored characters its provenance names. */
function expectExact(result: SearchResult, text: string): void {
  for (const match of result.matches) {
    const { charStart, charEnd, byteStart, byteEnd, lineStart } = match.provenance;
    expect(match.text).toBe(text.slice(charStart, charEnd));
    expect(Buffer.from(text).subarray(byteStart, byteEnd).toString("utf8")).toBe(match.text);
    expect(lineStart).toBe(match.line);
    expect(text.split("\n")[match.line - 1]).toContain(match.text);
  }
}

describe("search: words, not exact text", () => {
  it("finds BOOT-MARKER-ALPHA for 'boot marker', whatever the case and separators", async () => {
    const lines = filler(500);
    lines[321] = "2026-01-01T00:05:21 INFO kernel BOOT-MARKER-ALPHA=7f3a9c set";
    const text = `${lines.join("\n")}\n`;
    const { opened } = await openText(text);
    for (const query of [
      "boot marker",
      "Boot-Marker",
      "boot_marker",
      "BOOT MARKER",
      "ｂｏｏｔ marker",
    ]) {
      const found = await searchOutput(opened, { query });
      expect(found.matches[0]).toMatchObject({ line: 322, terms: ["boot", "marker"] });
      expect(found.matches).toHaveLength(1);
      expect(found.terms.map((t) => t.term)).toEqual(["boot", "marker"]);
      expectExact(found, text);
    }
    const camel = await openText("x\nconst bootMarker = 1;\nboot only\n");
    const both = await searchOutput(camel.opened, { query: "boot marker" });
    expect(both.matches.map((m) => m.line)).toEqual([2, 3]);
  });

  it("ranks rare words above common ones, and lines with all words above lines with some", async () => {
    const lines = filler(200, "payment service started");
    lines[50] = "2026-01-01T00:00:50 INFO payment service ledger mismatch";
    lines[90] = "2026-01-01T00:00:30 INFO payment service ledger checked";
    lines[120] = "2026-01-01T00:00:00 INFO payment service mismatch found";
    const text = `${lines.join("\n")}\n`;
    const { opened } = await openText(text);
    const found = await searchOutput(opened, { query: "payment ledger mismatch", maxResults: 5 });
    // All three words beat two; two rare words beat one rare and one common.
    expect(found.matches.map((m) => m.line)).toEqual([51, 91, 121, 1, 2]);
    expect(found.matches[0]!.terms).toEqual(["payment", "ledger", "mismatch"]);
    const weight = Object.fromEntries(found.terms.map((t) => [t.term, t]));
    expect(weight.payment!.lines).toBe(200);
    expect(weight.ledger!.lines).toBe(2);
    expect(weight.ledger!.weight).toBeGreaterThan(weight.payment!.weight * 10);
    expect(found.matchingLines).toBe(200);
    const scores = found.matches.map((m) => m.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // Equal scores keep the order of the text.
    expect(found.matches[3]!.score).toBe(found.matches[4]!.score);
  });

  it("counts a CSV row's column names in it: a row, not the header, answers 'shipment id lost'", async () => {
    const statuses = ["delivered", "in_transit", "returned"];
    const rows = Array.from(
      { length: 200 },
      (_, i) => `SHP-${100_000 + i},${500_000 + i},DHL,${statuses[i % 3]},gift wrap`,
    );
    for (const at of [39, 119, 189]) rows[at] = `SHP-${100_000 + at},${500_000 + at},UPS,lost,`;
    const text = `shipment_id,order_id,carrier,status,notes\n${rows.join("\n")}\n`;
    const { opened, record } = await openText(text);
    expect(record.kind).toBe("csv");
    const found = await searchOutput(opened, { query: "shipment id lost", maxResults: 4 });
    expect(found.matches.slice(0, 3).map((m) => m.line)).toEqual([41, 121, 191]);
    expect(found.matches[0]!.terms).toEqual(["shipment", "id", "lost"]);
    // The header still holds its own words: it comes after the rows that hold them all.
    expect(found.matches[3]!.line).toBe(1);
    expectExact(found, text);
    // A query of column names alone finds the header: no row holds a word of its own.
    const names = await searchOutput(opened, { query: "shipment status" });
    expect(names.matches.map((m) => m.line)).toEqual([1]);
    // A first row of data is no header: its values do not count in the other rows.
    const bare = await openText(`${rows.join("\n")}\n`);
    expect(bare.record.kind).toBe("csv");
    const noHeader = await searchOutput(bare.opened, { query: "SHP-100000 lost" });
    expect(noHeader.matches[0]!.line).toBe(1);
    expect(noHeader.matches.slice(1).every((m) => !m.terms.includes("100000"))).toBe(true);
    // A log's first line is not a header: its words stay its own.
    const log = await openText(
      `shipment id service started\n${filler(50).join("\n")}\nshipment lost\n`,
    );
    expect(log.record.kind).not.toBe("csv");
    const inLog = await searchOutput(log.opened, { query: "shipment id lost" });
    expect(inLog.matches.find((m) => m.line === 52)!.terms).toEqual(["shipment", "lost"]);
  });

  it("finds a time of day inside ISO timestamps: letters and digits meeting end a word", async () => {
    const lines = Array.from(
      { length: 300 },
      (_, i) =>
        `2026-03-14T${String(8 + Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}:05Z INFO [checkout] ok`,
    );
    lines[146] = "2026-03-14T10:26:41Z ERROR [checkout] payment authorization failed";
    const { opened } = await openText(`${lines.join("\n")}\n`);
    const found = await searchOutput(opened, { query: "What happened at 10:26?", maxResults: 3 });
    expect(found.matches[0]).toMatchObject({ line: 147 });
    expect(found.matches[0]!.terms).toEqual(["10", "26"]);
    // The whole word is still a term: a query for it finds it, and its parts alone do not match "14t1".
    const whole = await searchOutput(opened, { query: "14T10" });
    expect(whole.terms.map((t) => t.term)).toEqual(["14", "10", "14t10"]);
    expect(whole.matches[0]!.text).toContain("14T10");
  });

  it("matches whole words only: 'boot' does not find 'reboot'", async () => {
    const { opened } = await openText("reboot done\nrebooting\nboot done\n");
    const found = await searchOutput(opened, { query: "boot" });
    expect(found.matches.map((m) => m.line)).toEqual([3]);
    expect(found.matchingLines).toBe(1);
  });

  it("finds Japanese and Chinese words in sentences without spaces", async () => {
    const text = [
      "2026-03-14 起動処理を開始しました。",
      "2026-03-14 サーバーの起動マーカーはBOOT-7です。",
      "2026-03-14 ログファイルを確認してください。",
      "2026-03-14 服务器启动失败，错误代码为E42。",
      "",
    ].join("\n");
    const { opened } = await openText(text);
    const marker = await searchOutput(opened, { query: "起動マーカー" });
    expect(marker.matches[0]).toMatchObject({ line: 2 });
    expect(marker.matches[0]!.terms).toEqual(["起動", "動マ", "マー", "ーカ", "カー"]);
    // A query cut differently than the sentence still finds it: "マーカー" alone.
    expect((await searchOutput(opened, { query: "マーカー" })).matches[0]!.line).toBe(2);
    // One kanji alone, and a question around the words.
    expect((await searchOutput(opened, { query: "ログ" })).matches.map((m) => m.line)).toEqual([3]);
    const chinese = await searchOutput(opened, { query: "错误代码是什么" });
    expect(chinese.matches[0]!.line).toBe(4);
    expectExact(marker, text);
  });

  it("leaves a Japanese question's grammar out: its hiragana pairs do not outrank the word asked about", async () => {
    const cities = ["大阪第二", "東京第一", "札幌", "福岡"];
    const lines = Array.from(
      { length: 400 },
      (_, i) => `品番: AB-${10000 + i}  品名: 木製デスクライト  倉庫: ${cities[i % 4]}  数量: ${i}`,
    );
    // Notes written in the same grammar as the question, holding none of its content words.
    for (let i = 3; i < 400; i += 7)
      lines[i] = "照明が切れていますか。どの棚に置かれていますか、確認されていますか。";
    lines[250] = `品番: MS-44951  品名: 保冷バッグ  倉庫: 大阪第二  数量: 12`;
    const { opened } = await openText(`${lines.join("\n")}\n`);
    const found = await searchOutput(opened, {
      query: "MS-44951 はどの倉庫に保管されていますか",
      maxResults: 3,
    });
    expect(found.matches[0]).toMatchObject({ line: 251 });
    expect(found.ignoredWords).toEqual(expect.arrayContaining(["はど", "どの", "ます", "すか"]));
    expect(found.terms.map((t) => t.term)).toEqual(
      expect.arrayContaining(["ms", "44951", "倉庫", "保管"]),
    );
    // A pair across a particle and a noun is kept: it is part of the noun's context.
    const kana = await searchOutput(opened, { query: "どの棚" });
    expect(kana.terms.map((t) => t.term)).toEqual(["の棚"]);
    // A query of hiragana alone keeps its words: they are all it asks about.
    const onlyKana = await searchOutput(opened, { query: "されていますか" });
    expect(onlyKana.terms.map((t) => t.term)).toEqual([
      "され",
      "れて",
      "てい",
      "いま",
      "ます",
      "すか",
    ]);
    expect(onlyKana.matches[0]!.text).toContain("確認されていますか");
  });

  it("finds Thai words in a sentence without spaces", async () => {
    const text = [
      "ระบบเริ่มทำงานแล้ว",
      "ระบบเริ่มทำงานแล้วและบันทึกข้อผิดพลาดไว้ในไฟล์",
      "ผู้ใช้เข้าสู่ระบบสำเร็จ",
      "",
    ].join("\n");
    const { opened } = await openText(text);
    const found = await searchOutput(opened, { query: "ข้อผิดพลาด" });
    expect(found.matches.map((m) => m.line)).toEqual([2]);
    expectExact(found, text);
  });

  it("folds width and compatibility forms (NFKC) in the text, keeping offsets exact", async () => {
    const text = "plain line\nＥＲＲＯＲ：ＤＩＳＫ ＦＵＬＬ on ﬁle system\nerror elsewhere\n";
    const { opened } = await openText(text);
    const found = await searchOutput(opened, { query: "disk full file" });
    expect(found.matches[0]).toMatchObject({ line: 2, terms: ["disk", "full", "file"] });
    expectExact(found, text);
  });

  it("shows a long line as an excerpt around the match, saying so, with exact offsets", async () => {
    const long = `${"lorem ipsum ".repeat(5_000)}BOOT-MARKER-ALPHA=42 ${"dolor sit ".repeat(5_000)}`;
    const text = `first\n${long}\nlast\n`;
    const { opened } = await openText(text);
    const found = await searchOutput(opened, { query: "boot marker", maxLineChars: 200 });
    const match = found.matches[0]!;
    expect(match).toMatchObject({ line: 2, clipped: true });
    expect(match.text.length).toBe(200);
    expect(match.text).toContain("BOOT-MARKER-ALPHA=42");
    expectExact(found, text);
  });

  it("centres a long line's excerpt on the word it holds least often, not its first", async () => {
    const orders = Array.from({ length: 200 }, (_, i) => ({
      id: 5000 + i,
      status: i === 150 ? "refunded" : "packed",
    }));
    const text = JSON.stringify({ data: orders });
    const { opened } = await openText(text);
    const found = await searchOutput(opened, { query: "first order with status refunded" });
    expect(found.matches[0]!.clipped).toBe(true);
    expect(found.matches[0]!.text).toContain('{"id":5150,"status":"refunded"}');
    expectExact(found, text);
    // The word as search cuts words: a camelCase part, a pair of Japanese characters.
    const camel = JSON.stringify(
      Array.from({ length: 100 }, (_, i) => (i === 70 ? { refundReason: "late" } : { status: i })),
    );
    const part = await searchOutput((await openText(camel)).opened, { query: "refund status" });
    expect(part.matches[0]!.text).toContain('{"refundReason":"late"}');
    const notes = Array.from({ length: 120 }, (_, i) =>
      i === 90 ? "返品を受付" : "出荷を完了",
    ).join("。");
    const pair = await searchOutput((await openText(notes)).opened, { query: "出荷 返品" });
    expect(pair.matches[0]!.text).toContain("返品を受付");
  });

  it("centres a long line's excerpt on its rarest word where most of the query is around it", async () => {
    // Two customers share a name; only the second's e-mail has every word of the query. The
    // name is the line's rarest word, so its first occurrence is the wrong customer's.
    const filler = (i: number) => ({
      id: 7000 + i,
      qty: 22,
      customer: { name: `Buyer ${i}`, email: `buyer.${i}@mail.example.net` },
    });
    const customer = (email: string) => ({ name: "Tomas Walsh", email });
    const orders = [
      ...Array.from({ length: 30 }, (_, i) => filler(i)),
      { id: 8001, qty: 1, customer: customer("tomas.walsh@mail.example.net"), code: "X3XWK9" },
      ...Array.from({ length: 30 }, (_, i) => filler(40 + i)),
      { id: 8002, qty: 1, customer: customer("tomas.walsh.22@mail.example.net"), code: "NTZ7WA" },
      ...Array.from({ length: 30 }, (_, i) => filler(80 + i)),
    ];
    const text = JSON.stringify({ data: orders });
    const { opened } = await openText(text);
    const found = await searchOutput(opened, {
      query: "tomas.walsh.22@mail.example.net",
      maxLineChars: 240,
    });
    expect(found.matches[0]!.text).toContain("tomas.walsh.22@mail.example.net");
    expect(found.matches[0]!.text).toContain("NTZ7WA");
    expect(found.matches[0]!.text).not.toContain("X3XWK9");
    expectExact(found, text);
  });

  it("searches a line of several MB in windows, with bounded reads and exact offsets", async () => {
    const piece = "abcdefghij ".repeat(100_000); // 1.1 MB
    const long = `${piece.repeat(4)}needle-7f3a9c ${piece.repeat(3)}unicorn ${piece}`;
    const text = `head\n${long}\ntail unicorn\n`;
    const { opened } = await openText(text);
    const found = await searchOutput(opened, { query: "needle 7f3a9c unicorn" });
    expect(found.windowed).toBe(true);
    const lines = found.matches.map((m) => m.line);
    expect(lines).toContain(2);
    expect(lines).toContain(3);
    for (const match of found.matches) expect(match.text.length).toBeLessThanOrEqual(500);
    const needle = found.matches.find((m) => m.terms.includes("needle"))!;
    expect(needle).toMatchObject({ line: 2, clipped: true });
    expect(needle.text).toContain("needle-7f3a9c");
    expectExact(found, text);
  });

  it("refuses empty, punctuation-only and common-word-only queries, naming the argument", async () => {
    const { opened } = await openText("the boot marker\n");
    for (const query of ["", "   ", "--- !!", "what is the"]) {
      const error = await errorOf(searchOutput(opened, { query }));
      expect(isSpillwayError(error, "INVALID_ARGUMENT")).toBe(true);
      const details = (error as { details: Record<string, string> }).details;
      expect(details.argument).toBe("query");
      expect(details.valid).toContain("words to find");
    }
    const common = await errorOf(searchOutput(opened, { query: "what is the" }));
    expect((common as Error).message).toContain("(what, is, the)");
    const missing = await errorOf(searchOutput(opened, {} as never));
    expect(isSpillwayError(missing, "INVALID_ARGUMENT")).toBe(true);
    expect((missing as { details: { argument: string } }).details.argument).toBe("request.query");
    const wrong = await errorOf(searchOutput(opened, { query: "boot", maxResults: 0 }));
    expect(isSpillwayError(wrong, "INVALID_RANGE")).toBe(true);
    expect((wrong as Error).message).toContain("maxResults=0");
  });

  it("stops at its deadline and ranks what it searched, saying how far it got", async () => {
    // Three 4 MiB chunks of lines; the match is in the last line.
    const lines = filler(150_000);
    lines.push("2026-01-01T00:00:00 ERROR ledger mismatch");
    const text = `${lines.join("\n")}\n`;
    const { opened, record } = await openText(text);
    const whole = await searchOutput(opened, { query: "ledger" });
    expect(whole.stopped).toBeNull();
    expect(whole.searchedLines).toBe(record.lineCount);
    expect(whole.matches[0]!.line).toBe(150_001);
    const cut = await searchOutput(opened, { query: "ledger", timeoutMs: 1 });
    expect(cut.stopped).toEqual({ reason: "deadline", timeoutMs: 1 });
    expect(cut.searchedLines).toBeLessThan(record.lineCount!);
    expect(cut.matches).toEqual([]);
  });

  it("keeps at most maxCandidates matching lines, dropping the weaker half and saying so", async () => {
    const lines = filler(3_000, "status ok");
    lines[2_500] = "status ok ledger mismatch";
    const { opened } = await openText(`${lines.join("\n")}\n`);
    const found = await searchOutput(opened, { query: "ok ledger", maxCandidates: 100 });
    expect(found.matches[0]!.line).toBe(2_501);
    expect(found.candidatesDropped).toBeGreaterThan(2_800);
    expect(found.matchingLines).toBe(3_000);
    const all = await searchOutput(opened, { query: "ok ledger" });
    expect(all.candidatesDropped).toBe(0);
  });

  it("is one of readOutput's modes", async () => {
    const { store, record } = await openText("alpha\nbeta gamma\n");
    const found = await readOutput(store, record.id, SCOPE, { mode: "search", query: "gamma" });
    expect(found).toMatchObject({ mode: "search", outputId: record.id, sha256: record.sha256 });
    expect(found.matches[0]).toMatchObject({ line: 2, text: "beta gamma", clipped: false });
  });
});
