/**
 * A JSON-lines structured log: one JSON object a line, keys varying with the event (HTTP requests
 * with nested `http` and `user`, database queries, cache lookups, background jobs), the events of
 * one request sharing a `trace_id`. Questions: the path a trace requested, the trace of one
 * service's first error, the duration of one user's checkout, the one JWT that leaked.
 */
import type { Rng } from "../../../src/core/rng.js";
import { holdsValue } from "../score.js";
import type { GeneratedFile, Shape } from "../types.js";
import {
  Clock,
  digits,
  hex,
  iso,
  lookalike,
  personOf,
  SERVICES,
  shuffled,
  spots,
} from "../vocab.js";

type Event = Record<string, unknown> & { ts: string; level: string; svc: string };

interface User {
  id: string;
  email: string;
}

const TABLES = ["orders", "order_items", "carts", "stock_levels", "customers", "invoices"];
const QUEUES = ["emails", "invoices", "search-index", "webhooks"];
const ERRORS = [
  ["TimeoutError", "upstream timed out after 3000ms"],
  ["PoolExhaustedError", "no connection available within 500ms"],
  ["DeadlockError", "deadlock detected, transaction rolled back"],
  ["UpstreamError", "payment provider returned 502"],
] as const;

function pathOf(rng: Rng, user: User): [string, string] {
  switch (rng.int(7)) {
    case 0:
      return ["GET", `/api/v1/orders/${digits(rng, 5)}`];
    case 1:
      return ["POST", `/api/v1/carts/${user.id}/items`];
    case 2:
      return [
        "GET",
        `/api/v1/products/${rng.pick(["LMP", "SCF", "SKL", "BRD"])}-${digits(rng, 4)}`,
      ];
    case 3:
      return ["GET", `/api/v1/search?q=${rng.pick(["lamp", "scarf", "skillet", "board", "vest"])}`];
    case 4:
      return ["PUT", `/api/v1/users/${user.id}/addresses/${digits(rng, 3)}`];
    case 5:
      return ["DELETE", `/api/v1/carts/${user.id}/items/${digits(rng, 4)}`];
    default:
      return ["GET", `/api/v1/orders/${digits(rng, 5)}/invoice`];
  }
}

/** base64url of a JSON value, as a JWT segment. */
const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

export const jsonlLog: Shape = {
  name: "jsonl-log",
  generate(rng, chars): GeneratedFile {
    const clock = new Clock(rng, [15, 900]);
    const seen = new Set<string>();
    const users: User[] = [];
    while (users.length < 30) {
      const email = personOf(rng).email;
      if (seen.has(email)) continue;
      seen.add(email);
      users.push({ id: `u-${digits(rng, 5)}`, email });
    }
    const events: Event[] = [];
    const requests: Event[] = [];
    const traceOf = () => hex(rng, 32);
    const span = () => hex(rng, 16);
    const at = () => iso(clock.next());
    const request = (): void => {
      const svc = rng.pick(SERVICES);
      const user = rng.pick(users);
      const trace = traceOf();
      const [method, path] = pathOf(rng, user);
      if (rng.chance(0.5)) {
        const table = rng.pick(TABLES);
        events.push({
          ts: at(),
          level: "debug",
          svc,
          trace_id: trace,
          span_id: span(),
          db: { system: "postgresql", operation: rng.pick(["SELECT", "UPDATE", "INSERT"]), table },
          rows: rng.range(0, 40),
          duration_ms: rng.range(1, 120),
          msg: "query executed",
        });
      }
      if (rng.chance(0.3))
        events.push({
          ts: at(),
          level: "debug",
          svc,
          trace_id: trace,
          cache: { key: `cart:${user.id}`, hit: rng.chance(0.7) },
          msg: "cache lookup",
        });
      const event: Event = {
        ts: at(),
        level: "info",
        svc,
        trace_id: trace,
        span_id: span(),
        http: { method, path, status: rng.chance(0.9) ? 200 : rng.pick([201, 204, 304, 404]) },
        duration_ms: rng.range(4, 950),
        user: { id: user.id, email: user.email },
        msg: "request completed",
      };
      events.push(event);
      requests.push(event);
    };
    const job = (): void => {
      events.push({
        ts: at(),
        level: "info",
        svc: "worker",
        job: { id: `job_${hex(rng, 10)}`, queue: rng.pick(QUEUES), attempt: rng.range(1, 3) },
        duration_ms: rng.range(20, 4000),
        msg: "job completed",
      });
    };
    let size = 0;
    while (size < chars || requests.length < 24) {
      const before = events.length;
      if (rng.chance(0.85)) request();
      else job();
      for (const e of events.slice(before)) size += JSON.stringify(e).length + 1;
    }
    const n = requests.length;
    const [lookupAt, twinAt, checkoutAt, jwtAt, nearAt, ...rest] = shuffled(rng, spots(rng, n, 11));
    const [otherErrAt, warnAt, firstErr, ...laterErrs] = rest.sort((a, b) => a - b);
    const http = (e: Event) => e.http as { method: string; path: string; status: number };
    const traceIds = new Set(events.map((e) => e.trace_id));

    // lookup: the path one trace requested; a lookalike trace (one hex digit apart) requested another.
    const target = requests[lookupAt!]!;
    const twin = requests[twinAt!]!;
    http(target).method = "GET";
    http(target).path = `/api/v1/orders/${digits(rng, 5)}/shipments/${digits(rng, 3)}`;
    let twinTrace = lookalike(rng, target.trace_id as string);
    while (traceIds.has(twinTrace)) twinTrace = lookalike(rng, target.trace_id as string);
    for (const e of events) if (e.trace_id === twin.trace_id) e.trace_id = twinTrace;
    const aroundTarget = [requests[lookupAt! - 1], requests[lookupAt! + 1]].filter(
      (e): e is Event => e !== undefined,
    );

    // ordinal: the first error of one service; another service failed earlier, and this one
    // warned before its first error.
    const failing = rng.pick(SERVICES);
    const other = rng.pick(SERVICES.filter((s) => s !== failing));
    // A request moved to another service takes the events of its trace along.
    const moveTo = (e: Event, svc: string): void => {
      for (const x of events) if (x.trace_id === e.trace_id) x.svc = svc;
    };
    const fail = (e: Event, svc: string): void => {
      const [type, message] = rng.pick(ERRORS);
      moveTo(e, svc);
      Object.assign(e, { level: "error", error: { type, message }, msg: "request failed" });
      http(e).status = rng.pick([500, 502, 503, 504]);
    };
    const earlyOther = requests[otherErrAt!]!;
    fail(earlyOther, other);
    const warn = requests[warnAt!]!;
    moveTo(warn, failing);
    Object.assign(warn, { level: "warn", msg: "retrying after upstream error" });
    const errors = [firstErr!, ...laterErrs].map((i) => requests[i]!);
    for (const e of errors) fail(e, failing);
    // Events of other types than requests are never errors; no other request of the service is.
    for (const e of requests)
      if (e.level === "error" && e.svc === failing && !errors.includes(e)) moveTo(e, other);

    // cross-field: the duration of the one checkout POST of a user with other requests too.
    const byUser = requests[checkoutAt!]!;
    const buyer = byUser.user as User;
    http(byUser).method = "POST";
    http(byUser).path = "/api/v1/checkout";
    http(byUser).status = 201;
    byUser.duration_ms = rng.range(1000, 4999);
    const buyerOthers = requests.filter((e) => e !== byUser && (e.user as User).id === buyer.id);
    while (buyerOthers.length < 3) {
      const e = rng.pick(requests.filter((r) => r !== byUser && !buyerOthers.includes(r)));
      e.user = { ...buyer };
      buyerOthers.push(e);
    }
    // The user's requests are all slow. A duration that holds the answer's digits (329 in 3298)
    // or stands on the answer's line (as its status or a timestamp's digits) is no decoy.
    const line = JSON.stringify(byUser);
    const apart = (ms: number) =>
      !String(byUser.duration_ms).includes(String(ms)) && !holdsValue(line, String(ms));
    for (const e of buyerOthers) {
      if (http(e).path === "/api/v1/checkout") http(e).path = `/api/v1/carts/${buyer.id}/items`;
      do e.duration_ms = rng.range(1000, 4999);
      while (!apart(e.duration_ms as number));
    }
    // The checkout's own query, under the same trace, took a while too.
    const query = events.find((e) => e.trace_id === byUser.trace_id && e.db !== undefined);
    if (query)
      do query.duration_ms = rng.range(200, 999);
      while (!apart(query.duration_ms as number));

    // pattern: one rejected request logged its bearer token, a JWT; another event carries a
    // base64 session blob that only starts like one.
    const sub = (requests[jwtAt!]!.user as User).id;
    const issued = Math.floor(Date.parse(requests[jwtAt!]!.ts) / 1000) - rng.range(4000, 9000);
    const jwt = [
      segment({ alg: "HS256", typ: "JWT" }),
      segment({ sub, iat: issued, exp: issued + 3600 }),
      Buffer.from(hex(rng, 64), "hex").toString("base64url"),
    ].join(".");
    const leaked = requests[jwtAt!]!;
    Object.assign(leaked, {
      level: "warn",
      msg: `token rejected: expired (authorization: Bearer ${jwt})`,
    });
    http(leaked).status = 401;
    const session = segment({ uid: (requests[nearAt!]!.user as User).id, region: "eu" });
    requests[nearAt!]!.session = session;

    const text = `${events.map((e) => JSON.stringify(e)).join("\n")}\n`;
    return {
      name: "events.jsonl",
      text,
      questions: [
        {
          kind: "lookup",
          expected: http(target).path,
          decoys: [http(twin).path, ...aroundTarget.map((e) => http(e).path)],
          phrasings: [
            `Which path did the request with trace_id ${target.trace_id} hit? The log is {file}.`,
            `In {file}, what URL path was requested in trace ${target.trace_id}?`,
            `{file}: trace ${target.trace_id}, what's the http.path?`,
            `I have a trace id, ${target.trace_id}. What endpoint did that request call, according to {file}?`,
            `Find the request event for trace ${target.trace_id} in {file} and tell me its path.`,
          ],
        },
        {
          kind: "ordinal",
          expected: errors[0]!.trace_id as string,
          decoys: [earlyOther, warn, ...errors.slice(1)].map((e) => e.trace_id as string),
          phrasings: [
            `What is the trace_id of the first error the ${failing} service logged in {file}?`,
            `When did ${failing} start failing? Give me the trace id of its earliest error event in {file}.`,
            `{file}: first level=error event with svc ${failing}, which trace_id?`,
            `Looking at {file}, which trace had the very first error from the ${failing} service?`,
            `Find the earliest error logged by ${failing} in {file} and report its trace id.`,
          ],
        },
        {
          kind: "cross-field",
          expected: String(byUser.duration_ms),
          decoys: [
            ...buyerOthers.slice(0, 5).map((e) => String(e.duration_ms)),
            ...(query ? [String(query.duration_ms)] : []),
          ],
          phrasings: [
            `How long did the checkout POST of ${buyer.email} take? See {file}.`,
            `In {file}, what is the duration_ms of the POST /api/v1/checkout made by user ${buyer.email}?`,
            `{file}: ${buyer.email} checked out once. How many milliseconds did that request take?`,
            `What duration was logged for ${buyer.email}'s checkout request in {file}?`,
            `Give me duration_ms for method POST, path /api/v1/checkout, user email ${buyer.email} (file {file}).`,
          ],
        },
        {
          kind: "pattern",
          expected: jwt,
          decoys: [session],
          phrasings: [
            "Someone logged a JWT in {file}. What is the full token?",
            "Which bearer token (a JWT: three base64url parts separated by dots) appears in {file}? Report it exactly.",
            "{file} leaked an access token somewhere. Give me the whole JWT.",
            "Find the JSON Web Token in {file}.",
            "There's exactly one JWT in {file}; copy it for me so I can revoke it.",
          ],
        },
      ],
    };
  },
};
