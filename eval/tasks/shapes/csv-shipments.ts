/**
 * A CSV export of shipments: a header row, quoted notes with commas, warehouse codes, tracking
 * numbers. Questions: the warehouse a shipment left from, the last shipment marked lost, the
 * destination of a tracking number, the one phone number in international format.
 */
import type { Rng } from "../../../src/core/rng.js";
import type { GeneratedFile, Shape } from "../types.js";
import { CITIES, Clock, digits, iso, lookalike, shuffled, spots } from "../vocab.js";

const HEADER =
  "shipment_id,order_id,created_at,carrier,tracking_number,warehouse,destination_city,weight_kg,status,notes";
const STATUS = ["label_created", "in_transit", "in_transit", "delivered", "delivered", "returned"];
const NOTES = [
  "",
  "",
  "",
  '"fragile, keep upright"',
  '"leave at reception, not the mailbox"',
  "signature required",
  '"two parcels, one label"',
  "gift wrap",
];

interface Row {
  id: string;
  order: string;
  created: string;
  carrier: string;
  tracking: string;
  warehouse: string;
  city: string;
  weight: string;
  status: string;
  notes: string;
}

const render = (r: Row) =>
  [
    r.id,
    r.order,
    r.created,
    r.carrier,
    r.tracking,
    r.warehouse,
    r.city,
    r.weight,
    r.status,
    r.notes,
  ].join(",");

function rowOf(rng: Rng, clock: Clock, warehouses: string[]): Row {
  return {
    id: `SHP-${digits(rng, 6)}`,
    order: `${rng.range(100000, 999999)}`,
    created: iso(clock.next()),
    carrier: rng.pick(["DHL", "UPS", "PostNL", "GLS", "DPD", "Bpost"]),
    tracking: `${rng.pick(["JJD", "1Z", "3SAB", "CX"])}${digits(rng, 12)}`,
    warehouse: rng.pick(warehouses),
    city: rng.pick(CITIES),
    weight: (rng.range(1, 400) / 10).toFixed(1),
    status: rng.pick(STATUS),
    notes: rng.pick(NOTES),
  };
}

export const csvShipments: Shape = {
  name: "csv",
  generate(rng, size): GeneratedFile {
    const clock = new Clock(rng, [20_000, 400_000]);
    const warehouses = Array.from(
      { length: 14 },
      () => `WH-${rng.pick(["NL", "DE", "FR", "PL", "ES", "IT"])}-${digits(rng, 3)}`,
    );
    const rows: Row[] = [];
    let total = HEADER.length + 1;
    while (total < size) {
      const row = rowOf(rng, clock, warehouses);
      rows.push(row);
      total += render(row).length + 1;
    }
    const n = rows.length;
    const [lookupAt, twinAt, trackingAt, phoneAt, nearAt, ...rest] = shuffled(
      rng,
      spots(rng, n, 9),
    );
    const lostAt = rest.sort((a, b) => a - b);

    // lookup: the warehouse of a shipment; a lookalike id left from another warehouse.
    const target = rows[lookupAt!]!;
    const twin = rows[twinAt!]!;
    twin.id = lookalike(rng, target.id);
    while (twin.warehouse === target.warehouse) twin.warehouse = rng.pick(warehouses);
    const around = [rows[lookupAt! - 1], rows[lookupAt! + 1]].filter(
      (r): r is Row => r !== undefined,
    );
    for (const r of around)
      while (r.warehouse === target.warehouse) r.warehouse = rng.pick(warehouses);

    // ordinal: the last shipment marked lost; the others were lost earlier.
    const lost = lostAt.map((i) => rows[i]!);
    for (const r of lost) r.status = "lost";
    const last = lost.at(-1)!;

    // cross-field: the destination city of a tracking number; its neighbours go elsewhere.
    const byTracking = rows[trackingAt!]!;
    const near = [rows[trackingAt! - 1], rows[trackingAt! + 1]].filter(
      (r): r is Row => r !== undefined,
    );
    for (const r of near) while (r.city === byTracking.city) r.city = rng.pick(CITIES);

    // pattern: one note holds a phone number in international format; another a local number.
    const phone = `+31 6 ${digits(rng, 4)} ${digits(rng, 4)}`;
    rows[phoneAt!]!.notes = `"call ${phone} before delivery, gate code 4411"`;
    const local = `06-${digits(rng, 8)}`;
    rows[nearAt!]!.notes = `"customer asked for a call on ${local}"`;

    return {
      name: "shipments.csv",
      text: `${[HEADER, ...rows.map(render)].join("\n")}\n`,
      questions: [
        {
          kind: "lookup",
          expected: target.warehouse,
          decoys: [twin.warehouse, ...around.map((r) => r.warehouse)],
          phrasings: [
            `Which warehouse did shipment ${target.id} leave from? The export is {file}.`,
            `In {file}, what is the warehouse of ${target.id}?`,
            `{file}: find shipment ${target.id} and report its warehouse code.`,
            `Shipment ${target.id}: which warehouse shipped it, according to {file}?`,
            `What warehouse column value does the row for ${target.id} have in {file}?`,
          ],
        },
        {
          kind: "ordinal",
          expected: last.id,
          decoys: lost.slice(0, -1).map((r) => r.id),
          phrasings: [
            "Which was the last shipment marked lost in {file}? Give its shipment id.",
            "In {file}, what is the shipment_id of the final row with status lost?",
            "{file}: several parcels were lost. Report the id of the last one in the file.",
            "Going by {file}, which shipment is the most recent one whose status is lost?",
            "Find the bottom-most lost shipment in {file} and tell me its id.",
          ],
        },
        {
          kind: "cross-field",
          expected: byTracking.city,
          decoys: near.map((r) => r.city),
          phrasings: [
            `Which city is the shipment with tracking number ${byTracking.tracking} going to? See {file}.`,
            `In {file}, what destination_city has tracking_number ${byTracking.tracking}?`,
            `{file}: where is parcel ${byTracking.tracking} headed?`,
            `Give me the destination of the shipment tracked as ${byTracking.tracking} (file {file}).`,
            `For tracking number ${byTracking.tracking} in {file}, what is the destination city?`,
          ],
        },
        {
          kind: "pattern",
          expected: phone,
          decoys: [local],
          phrasings: [
            "One note in {file} has a phone number in international format (starting with +). What is it?",
            "Which phone number with a country code appears in the notes of {file}?",
            "{file}: find the international phone number someone left in a note.",
            "Report the +31 phone number written in {file}.",
            "What phone number, written with a leading plus sign, is in {file}?",
          ],
        },
      ],
    };
  },
};
