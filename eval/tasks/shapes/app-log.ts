/**
 * An application log: one line an event (`<time> <LEVEL> [service] key=value … msg="…"`), some
 * errors followed by an indented stack trace. Questions: the order a request handled, the
 * request of the first error, the latency of one user's failed request, the one IPv6 client.
 */
import type { Rng } from "../../../src/core/rng.js";
import type { GeneratedFile, Shape } from "../types.js";
import {
  Clock,
  digits,
  hex,
  idOf,
  ipv4,
  ipv6,
  iso,
  lookalike,
  SERVICES,
  shuffled,
  spots,
} from "../vocab.js";

interface Event {
  time: Date;
  level: "DEBUG" | "INFO" | "WARN" | "ERROR";
  service: string;
  req: string;
  user: string;
  order: string;
  status: number;
  latency: number;
  client: string;
  msg: string;
  trace?: string[];
}

const OK_MESSAGES = [
  "order placed",
  "cart updated",
  "price recalculated",
  "session refreshed",
  "stock reserved",
  "invoice rendered",
  "search served",
  "token issued",
];

const ERROR_MESSAGES = [
  "upstream timed out after 3000ms",
  "connection pool exhausted",
  "deadlock detected, transaction rolled back",
  "payment provider returned 502",
];

function stackOf(rng: Rng, service: string): string[] {
  const frames = rng.range(3, 7);
  const out = [`    Error: ${rng.pick(ERROR_MESSAGES)}`];
  for (let i = 0; i < frames; i++)
    out.push(
      `        at ${rng.pick(["handle", "execute", "query", "send", "retry"])}${rng.pick(["Order", "Payment", "Request", "Batch"])} (/srv/${service}/src/${rng.pick(["db", "http", "queue", "core"])}/${rng.pick(["pool", "client", "worker", "router"])}.js:${rng.range(10, 900)}:${rng.range(2, 60)})`,
    );
  return out;
}

function render(e: Event): string {
  const head =
    `${iso(e.time)} ${e.level.padEnd(5)} [${e.service}] req=${e.req} user=${e.user} order=${e.order} ` +
    `status=${e.status} latency_ms=${e.latency} client=${e.client} msg="${e.msg}"`;
  return e.trace ? [head, ...e.trace].join("\n") : head;
}

export const appLog: Shape = {
  name: "app-log",
  generate(rng, chars): GeneratedFile {
    const clock = new Clock(rng, [30, 1800]);
    const users = Array.from({ length: 40 }, () => `u-${digits(rng, 5)}`);
    const events: Event[] = [];
    const make = (): Event => ({
      time: clock.next(),
      level: rng.chance(0.15) ? "DEBUG" : rng.chance(0.1) ? "WARN" : "INFO",
      service: rng.pick(SERVICES),
      req: idOf(rng, "req"),
      user: rng.pick(users),
      order: `ord-${digits(rng, 5)}`,
      status: rng.chance(0.9) ? 200 : rng.pick([201, 204, 302, 404]),
      latency: rng.range(3, 900),
      client: ipv4(rng),
      msg: rng.pick(OK_MESSAGES),
    });
    let size = 0;
    while (size < chars) {
      const e = make();
      events.push(e);
      size += render(e).length + 1;
    }
    const n = events.length;
    // Where the planted events go, each at its own line: the warning comes before the errors.
    const [lookupAt, twinAt, userAt, v6At, macAt, ...rest] = shuffled(rng, spots(rng, n, 9));
    const [warnAt, firstErr, secondErr, thirdErr] = rest.sort((a, b) => a - b);

    // lookup: the order of one request; a lookalike request handled another order.
    const target = events[lookupAt!]!;
    const twin = events[twinAt!]!;
    twin.req = lookalike(rng, target.req);
    const neighbours = [events[lookupAt! - 1]!, events[lookupAt! + 1]!];

    // ordinal: the first ERROR (with a stack), after a warning that mentions an error.
    const warn = events[warnAt!]!;
    Object.assign(warn, { level: "WARN", msg: "retrying after upstream error" });
    const errors = [firstErr!, secondErr!, thirdErr!].map((i) => events[i]!);
    for (const e of errors) {
      const msg = rng.pick(ERROR_MESSAGES);
      Object.assign(e, {
        level: "ERROR",
        status: 500 + rng.pick([0, 2, 4]),
        msg,
        trace: stackOf(rng, e.service),
      });
    }

    // cross-field: the latency of the one 503 of a user who has other requests too.
    const user = rng.pick(users);
    const failed = events[userAt!]!;
    Object.assign(failed, { user, status: 503, latency: rng.range(1000, 9999) });
    // The user has other requests (at least three), slow too: their latencies are the decoys.
    for (const i of spots(rng, n, 3))
      if (events[i] !== failed && i !== lookupAt) events[i]!.user = user;
    for (const e of events) if (e.user === user && e !== failed) e.latency = rng.range(1000, 9999);
    failed.level = "WARN";
    failed.msg = "upstream unavailable";
    const sameUser = events.filter((e) => e.user === user && e !== failed).slice(0, 4);

    // pattern: one IPv6 client among IPv4 ones; a MAC address is the near miss.
    const v6 = ipv6(rng);
    events[v6At!]!.client = v6;
    const mac = Array.from({ length: 6 }, () => hex(rng, 2)).join(":");
    events[macAt!]!.msg = `device ${mac} re-registered`;

    const text = `${events.map(render).join("\n")}\n`;
    return {
      name: "app.log",
      text,
      questions: [
        {
          kind: "lookup",
          expected: target.order,
          decoys: [twin.order, ...neighbours.map((e) => e.order)],
          phrasings: [
            `Which order did request ${target.req} handle in {file}?`,
            `In {file}, what is the order id logged for request ${target.req}?`,
            `Find request ${target.req} in {file} and tell me which order it was for.`,
            `{file}: request ${target.req}, what order number does it mention?`,
            `I'm chasing request ${target.req}. Which order was it working on? The log is {file}.`,
          ],
        },
        {
          kind: "ordinal",
          expected: errors[0]!.req,
          decoys: [warn.req, errors[1]!.req, errors[2]!.req],
          phrasings: [
            "What is the request id of the first error in {file}?",
            "When things started failing in {file}, which request failed first? Give its request id.",
            "Find the earliest ERROR line in {file} and report the request it belongs to.",
            "{file} has several errors. Which request had the very first one?",
            "Which request id is on the first line logged at level ERROR in {file}?",
          ],
        },
        {
          kind: "cross-field",
          expected: String(failed.latency),
          decoys: sameUser.map((e) => String(e.latency)),
          phrasings: [
            `What latency did {file} record for ${user}'s request that returned 503?`,
            `User ${user} got one 503. How many milliseconds did that request take? See {file}.`,
            `In {file}, find the request with status 503 for user ${user}; what is its latency_ms?`,
            `Which latency_ms value goes with user=${user} and status=503 in {file}?`,
            `How long did the failed (503) request of ${user} take, according to {file}?`,
          ],
        },
        {
          kind: "pattern",
          expected: v6,
          decoys: [mac],
          phrasings: [
            "There is exactly one IPv6 address in {file}. Which one?",
            "Which client connected over IPv6 according to {file}? Give the address.",
            "Find the IPv6 client address in {file}.",
            "{file} logs client addresses; one of them is IPv6, not IPv4. Report it exactly.",
            "What IPv6 address appears in {file}?",
          ],
        },
      ],
    };
  },
};
