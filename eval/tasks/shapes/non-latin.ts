/**
 * Warehouse stocktake notes in Japanese: a block a day (date, writer), one line an item
 * (`品番: …  品名: …  倉庫: …  棚: …  数量: …  担当: …  状態: …`), remarks in prose between them.
 * Questions, phrased in Japanese and in English: the warehouse of an item, the first item out of
 * stock, the person in charge of one product at one warehouse, the one 13-digit JAN code.
 */
import type { Rng } from "../../../src/core/rng.js";
import type { GeneratedFile, Shape } from "../types.js";
import { Clock, digits, lookalike, shuffled, spots } from "../vocab.js";

const words = (list: string) => list.trim().split(/\s+/);

const PRODUCTS = [
  "ステンレス水筒 500ml",
  "竹製まな板",
  "鋳鉄スキレット 26cm",
  "麻のシーツ",
  "陶器のドリッパー",
  "ランニングベスト",
  "ワイヤレスイヤホン",
  "折りたたみスツール",
  "銅のじょうろ",
  "フェルトスリッパ",
  "ウールマフラー",
  "木製デスクライト",
  "ガラス保存容器 1L",
  "珪藻土バスマット",
  "保冷バッグ 20L",
];
const WAREHOUSES = words("東京第一 東京第二 大阪第一 大阪第二 名古屋 福岡 仙台 札幌");
/** Surnames, none written inside another. */
const STAFF = words("田中 佐藤 鈴木 高橋 伊藤 渡辺 山本 中村 小林 加藤 吉田 松本 井上");
const STATES = ["通常", "通常", "通常", "出荷待ち", "入荷待ち"];
const REMARKS = [
  "午前中にフォークリフトの点検があり、出荷が30分ほど遅れた。",
  "雨のため、屋外の仮置き場は使わないこと。",
  "棚Cの照明が一部切れている。総務に連絡済み。",
  "明日は10時から本社の監査が入る予定。",
  "新人に検品の手順を説明した。来週から一人で担当できそう。",
  "返品分は検品後に棚Eへ移動。",
  "温度計の記録を確認、異常なし。",
  "段ボールの在庫が少ない。次回の発注に追加すること。",
];
const WEEKDAYS = "日月火水木金土";

interface Item {
  code: string;
  name: string;
  warehouse: string;
  shelf: string;
  qty: number;
  staff: string;
  state: string;
  remark?: string;
}

const render = (i: Item) =>
  `品番: ${i.code}  品名: ${i.name}  倉庫: ${i.warehouse}  棚: ${i.shelf}  数量: ${i.qty}  担当: ${i.staff}  状態: ${i.state}` +
  (i.remark ? `\n  備考: ${i.remark}` : "");

/** A JAN (EAN-13) code from Japan with its check digit. */
function janOf(rng: Rng): string {
  const body = `49${digits(rng, 10)}`;
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

export const nonLatin: Shape = {
  name: "non-latin",
  generate(rng, chars): GeneratedFile {
    const codes = new Set<string>();
    const codeOf = (): string => {
      for (;;) {
        const code = `${rng.pick(["AB", "KT", "MS", "RN", "YH"])}-${rng.range(1, 9)}${digits(rng, 4)}`;
        if (!codes.has(code)) {
          codes.add(code);
          return code;
        }
      }
    };
    const items: Item[] = [];
    let size = 0;
    while (size < chars * 0.95) {
      const item: Item = {
        code: codeOf(),
        name: rng.pick(PRODUCTS),
        warehouse: rng.pick(WAREHOUSES),
        shelf: `${rng.pick(["A", "B", "C", "D", "E"])}-${String(rng.range(1, 24)).padStart(2, "0")}-${rng.range(1, 5)}`,
        qty: rng.range(1, 480),
        staff: rng.pick(STAFF),
        state: rng.pick(STATES),
      };
      items.push(item);
      size += render(item).length + 1;
    }
    const n = items.length;
    const [lookupAt, twinAt, crossAt, janAt, slipAt, ...rest] = shuffled(rng, spots(rng, n, 10));
    const [riskAt, ...outAt] = rest.sort((a, b) => a - b);

    // cross-field: the person in charge of one product at one warehouse (the only such line);
    // the same product elsewhere is handled by others.
    const cross = items[crossAt!]!;
    for (const i of items)
      if (i !== cross && i.name === cross.name)
        while (i.warehouse === cross.warehouse) i.warehouse = rng.pick(WAREHOUSES);
    const sameProduct = items.filter((i) => i !== cross && i.name === cross.name);
    for (const i of sameProduct.slice(0, 5))
      while (i.staff === cross.staff) i.staff = rng.pick(STAFF);

    // ordinal: the first item out of stock; one before it was only feared to run out.
    const risk = items[riskAt!]!;
    Object.assign(risk, { state: "入荷待ち", remark: "欠品の恐れあり。メーカーに納期を確認中。" });
    const out = outAt.map((i) => items[i]!);
    for (const i of out) Object.assign(i, { state: "欠品", qty: 0 });

    // lookup: the warehouse of an item; a lookalike code (one character apart) is elsewhere.
    const target = items[lookupAt!]!;
    const twin = items[twinAt!]!;
    let twinCode = lookalike(rng, target.code);
    while (codes.has(twinCode)) twinCode = lookalike(rng, target.code);
    twin.code = twinCode;
    while (
      twin.warehouse === target.warehouse ||
      (twin.name === cross.name && twin.warehouse === cross.warehouse)
    )
      twin.warehouse = rng.pick(WAREHOUSES);
    const whereDecoys = [twin, items[lookupAt! - 1]!, items[lookupAt! + 1]!]
      .map((i) => i.warehouse)
      .filter((w) => w !== target.warehouse);

    // pattern: one remark holds a 13-digit JAN code; another a 12-digit slip number.
    const jan = janOf(rng);
    items[janAt!]!.remark =
      `メーカーから新しいバーコード ${jan} の連絡あり。ラベルを貼り替え済み。`;
    const slip = `49${digits(rng, 10)}`;
    items[slipAt!]!.remark =
      `伝票番号 ${slip} の分は運送会社(06-6${digits(rng, 3)}-${digits(rng, 4)})に再配達を依頼。`;

    // Days: a header, the day's items, now and then a remark in prose.
    const clock = new Clock(rng, [20 * 3600_000, 30 * 3600_000]);
    const lines: string[] = [];
    let at = 0;
    while (at < n) {
      const day = clock.next();
      const date = `${day.getUTCFullYear()}年${day.getUTCMonth() + 1}月${day.getUTCDate()}日(${WEEKDAYS[day.getUTCDay()]})`;
      lines.push(`■ ${date}  棚卸メモ  記入: ${rng.pick(STAFF)}`, "");
      const count = rng.range(12, 30);
      for (const item of items.slice(at, at + count)) lines.push(render(item));
      at += count;
      lines.push("", `${rng.pick(REMARKS)}${rng.chance(0.4) ? rng.pick(REMARKS) : ""}`, "");
    }
    const text = `${lines.join("\n")}\n`;
    return {
      name: "在庫メモ.txt",
      text,
      questions: [
        {
          kind: "lookup",
          expected: target.warehouse,
          decoys: whereDecoys,
          phrasings: [
            `品番 ${target.code} の倉庫はどこですか?({file})`,
            `{file} で、${target.code} はどの倉庫に保管されていますか?`,
            `Which warehouse is item ${target.code} stored in? The notes are {file}.`,
            `{file}: 倉庫 for ${target.code}?`,
            `I need to know where ${target.code} is kept. What does {file} give as its warehouse (倉庫)?`,
          ],
        },
        {
          kind: "ordinal",
          expected: out[0]!.code,
          decoys: [risk.code, ...out.slice(1).map((i) => i.code)],
          phrasings: [
            "{file} で最初に欠品になった品番は?",
            "在庫メモ({file})の中で、状態が「欠品」になっている最初の品番を教えてください。",
            "Which item was the first to go out of stock in {file}? Give its 品番.",
            "{file}: first 欠品 line, which part number?",
            "Going through {file} from the top, what's the first product code marked as out of stock?",
          ],
        },
        {
          kind: "cross-field",
          expected: cross.staff,
          decoys: sameProduct.slice(0, 5).map((i) => i.staff),
          phrasings: [
            `${cross.warehouse}倉庫の「${cross.name}」の担当者は誰ですか?({file})`,
            `{file} で、品名「${cross.name}」・倉庫「${cross.warehouse}」の行の担当は?`,
            `Who is in charge of ${cross.name} at the ${cross.warehouse} warehouse? See {file}.`,
            `{file}: ${cross.name} / ${cross.warehouse}, 担当?`,
            `In {file}, find the line with 品名 ${cross.name} and 倉庫 ${cross.warehouse}. Who is the 担当?`,
          ],
        },
        {
          kind: "pattern",
          expected: jan,
          decoys: [slip],
          phrasings: [
            "{file} に出てくる13桁のJANコードは?",
            "メモ({file})の中にあるJANコード(13桁の数字)を正確に教えてください。",
            "Which 13-digit JAN barcode number appears in {file}?",
            "{file}: the one 13-digit barcode?",
            "There's a new barcode number written in the notes {file}. What is it exactly?",
          ],
        },
      ],
    };
  },
};
