/**
 * A JSON API response: a page of orders with nested customer, items, shipping and payment
 * objects, numeric order ids. Pretty-printed (`json-api`) or minified on one line (`json-min`).
 * Questions: the tracking number of an order, the first refunded order, the authorization code of
 * the order a customer's e-mail identifies, the one UUID idempotency key.
 */
import type { Rng } from "../../../src/core/rng.js";
import type { GeneratedFile, Shape, ShapeName } from "../types.js";
import {
  CITIES,
  Clock,
  chars,
  digits,
  hex,
  iso,
  lookalike,
  PRODUCTS,
  personOf,
  shuffled,
  spots,
} from "../vocab.js";

const UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const STATUSES = ["paid", "packed", "shipped", "delivered", "cancelled"];

interface Order {
  id: number;
  status: string;
  created_at: string;
  idempotency_key: string;
  customer: { id: string; name: string; email: string };
  items: { sku: string; name: string; qty: number; unit_price: number }[];
  shipping: { carrier: string; tracking: string; warehouse: string };
  payment: { method: string; auth: { code: string; network: string } };
}

function orderOf(rng: Rng, id: number, clock: Clock): Order {
  const person = personOf(rng);
  const items = Array.from({ length: rng.range(1, 3) }, () => {
    const name = rng.pick(PRODUCTS);
    return {
      sku: `${name
        .split(/[ -]/)
        .map((w) => w[0]!.toUpperCase())
        .join("")}-${digits(rng, 4)}`,
      name,
      qty: rng.range(1, 4),
      unit_price: rng.range(500, 19900) / 100,
    };
  });
  return {
    id,
    status: rng.pick(STATUSES),
    created_at: iso(clock.next()),
    idempotency_key: `ik_${hex(rng, 16)}`,
    customer: {
      id: `cus_${chars(rng, "abcdefghijkmnpqrstuvwxyz0123456789", 8)}`,
      name: `${person.first} ${person.last}`,
      email: person.email,
    },
    items,
    shipping: {
      carrier: rng.pick(["DHL", "UPS", "PostNL", "GLS", "DPD"]),
      tracking: `${rng.pick(["JD", "1Z", "3S", "CX"])}${digits(rng, 14)}`,
      warehouse: `${rng.pick(CITIES)}-${rng.range(1, 4)}`,
    },
    payment: {
      method: rng.pick(["card", "card", "paypal", "sepa"]),
      auth: { code: chars(rng, UPPER, 6), network: rng.pick(["visa", "mastercard", "amex"]) },
    },
  };
}

function uuid(rng: Rng): string {
  const h = hex(rng, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function generate(rng: Rng, chars: number, minified: boolean): GeneratedFile {
  const clock = new Clock(rng, [20_000, 900_000]);
  let nextId = rng.range(20_000, 60_000);
  const orders: Order[] = [];
  const render = (list: Order[]) =>
    JSON.stringify(
      { object: "list", page: 1, per_page: list.length, has_more: true, data: list },
      null,
      minified ? undefined : 2,
    );
  // Size by one order's rendering (every order is about the same length).
  const probe = render([orderOf(rng, 1, clock)]).length;
  const count = Math.max(15, Math.round(chars / Math.max(200, probe - 60)));
  for (let i = 0; i < count; i++) {
    nextId += rng.range(1, 9);
    orders.push(orderOf(rng, nextId, clock));
  }
  const n = orders.length;
  const [lookupAt, twinAt, emailAt, uuidAt, nearUuidAt, ...rest] = shuffled(rng, spots(rng, n, 9));
  const [requestedAt, ...refundedAt] = rest.sort((a, b) => a - b);

  // lookup: an order's tracking number; a lookalike id (one digit apart) elsewhere.
  const target = orders[lookupAt!]!;
  const twin = orders[twinAt!]!;
  twin.id = Number(lookalike(rng, String(target.id)));
  if (twin.id === target.id || orders.some((o) => o !== twin && o.id === twin.id))
    twin.id = target.id + 100_000;

  // ordinal: the first refunded order; one before it only asked for a refund.
  orders[requestedAt!]!.status = "refund_requested";
  const refunded = refundedAt.map((i) => orders[i]!);
  for (const o of refunded) o.status = "refunded";

  // cross-field: the authorization code of the order a customer's e-mail identifies.
  const byEmail = orders[emailAt!]!;
  const email = `${byEmail.customer.email.split("@")[0]}.${digits(rng, 2)}@${byEmail.customer.email.split("@")[1]}`;
  byEmail.customer.email = email;
  const near = [orders[emailAt! - 1]!, orders[emailAt! + 1]!].filter(Boolean);

  // pattern: one idempotency key is a UUID; another order's key only looks like one.
  const key = uuid(rng);
  orders[uuidAt!]!.idempotency_key = key;
  const nearMiss = uuid(rng).split("-").slice(0, 4).join("-");
  orders[nearUuidAt!]!.idempotency_key = `ik_${nearMiss}`;

  return {
    name: minified ? "export.json" : "orders.json",
    text: `${render(orders)}\n`,
    questions: [
      {
        kind: "lookup",
        expected: target.shipping.tracking,
        decoys: [
          twin.shipping.tracking,
          orders[lookupAt! - 1]?.shipping.tracking ?? "",
          orders[lookupAt! + 1]?.shipping.tracking ?? "",
        ],
        phrasings: [
          `What is the tracking number of order ${target.id} in {file}?`,
          `{file}: which tracking number does order ${target.id} ship under?`,
          `Find order ${target.id} in {file} and give me its shipping tracking code.`,
          `I need the tracking number for order #${target.id}. It's in {file}.`,
          `In {file}, what does shipping.tracking say for the order with id ${target.id}?`,
        ],
      },
      {
        kind: "ordinal",
        expected: String(refunded[0]!.id),
        decoys: [String(orders[requestedAt!]!.id), ...refunded.slice(1).map((o) => String(o.id))],
        phrasings: [
          "Which order in {file} was the first one refunded? Give its id.",
          "In {file}, what is the id of the first order whose status is refunded?",
          "Looking at {file} from the top, which order is the earliest with a refund completed?",
          "{file} lists orders; report the id of the first refunded order.",
          'Find the first order with status "refunded" in {file} and tell me its order id.',
        ],
      },
      {
        kind: "cross-field",
        expected: byEmail.payment.auth.code,
        decoys: near.map((o) => o.payment.auth.code),
        phrasings: [
          `What is the payment authorization code of the order placed by ${email}? See {file}.`,
          `In {file}, the customer with email ${email} placed an order. What is its payment.auth.code?`,
          `Which auth code did the payment get for ${email}'s order in {file}?`,
          `{file}: find the order whose customer email is ${email} and report the authorization code of its payment.`,
          `Give me the card authorization code for the customer ${email} (file {file}).`,
        ],
      },
      {
        kind: "pattern",
        expected: key,
        decoys: [`ik_${nearMiss}`, nearMiss],
        phrasings: [
          "One order in {file} has a UUID as its idempotency key. What is that UUID?",
          "Which idempotency key in {file} is a full UUID (8-4-4-4-12 hex digits)? Report it exactly.",
          "Find the only idempotency_key in {file} written as a UUID.",
          "{file}: most idempotency keys start with ik_, but one is a plain UUID. Which one?",
          "Report the UUID that appears as an idempotency key in {file}.",
        ],
      },
    ],
  };
}

const shapeOf = (name: ShapeName, minified: boolean): Shape => ({
  name,
  generate: (rng, chars) => generate(rng, chars, minified),
});

export const jsonApi = shapeOf("json-api", false);
export const jsonMin = shapeOf("json-min", true);
