/**
 * A web server's access log in the combined format with upstream timings at the end (nginx's
 * `rt= uct= uht= urt=`): client, ident, user, [time], request line, status, bytes, referer, user
 * agent. Questions: the client that fetched one invoice, the time of the first 502, the upstream
 * time of one client's checkout, the one API key that leaked into a URL.
 */
import type { Rng } from "../../../src/core/rng.js";
import { holdsValue } from "../score.js";
import type { GeneratedFile, Shape } from "../types.js";
import { Clock, clf, digits, hex, ipv4, lookalike, shuffled, spots } from "../vocab.js";

interface Hit {
  time: Date;
  client: string;
  user: string;
  method: string;
  path: string;
  status: number;
  bytes: number;
  referer: string;
  agent: string;
  rt: number;
  /** Upstream connect, header and response seconds; absent when nginx served the file itself. */
  upstream?: [number, number, number];
}

const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36",
  "okhttp/4.12.0",
  "curl/8.5.0",
];
const SLUGS = [
  "walnut-desk-lamp",
  "merino-travel-scarf",
  "cast-iron-skillet",
  "trail-running-vest",
];
const SITE = "https://shop.example.com";
const secs = (n: number) => n.toFixed(3);

function render(h: Hit): string {
  const [uct, uht, urt] = h.upstream ? h.upstream.map(secs) : ["-", "-", "-"];
  return (
    `${h.client} - ${h.user} [${clf(h.time)}] "${h.method} ${h.path} HTTP/1.1" ${h.status} ${h.bytes} ` +
    `"${h.referer}" "${h.agent}" rt=${secs(h.rt)} uct="${uct}" uht="${uht}" urt="${urt}"`
  );
}

/**
 * Upstream timings within the request's `rt` seconds: connect, first header, response. `apart`
 * keeps the three times distinct, so none can be taken for another.
 */
function upstreamOf(rng: Rng, rt: number, apart = false): [number, number, number] {
  const urt = Math.max(0.002, rt - rng.range(apart ? 1 : 0, 3) / 1000);
  return [rng.range(0, 3) / 1000, Math.max(0.001, urt - rng.range(apart ? 5 : 0, 40) / 1000), urt];
}

function hitOf(rng: Rng, clock: Clock, clients: string[]): Hit {
  const client = rng.pick(clients);
  const agent = rng.pick(AGENTS);
  const base = { time: clock.next(), client, user: "-", agent, referer: "-" };
  const kind = rng.int(10);
  if (kind < 3) {
    const asset = rng.pick([
      `/static/js/main.${hex(rng, 8)}.js`,
      `/static/css/app.${hex(rng, 8)}.css`,
      `/static/img/${rng.pick(SLUGS)}-${rng.range(1, 4)}.webp`,
      "/favicon.ico",
    ]);
    const cached = rng.chance(0.4);
    return {
      ...base,
      method: "GET",
      path: asset,
      status: cached ? 304 : 200,
      bytes: cached ? 0 : asset === "/favicon.ico" ? 15_086 : rng.range(900, 240_000),
      referer: `${SITE}/`,
      rt: rng.range(0, 4) / 1000,
    };
  }
  const rt = rng.range(8, 900) / 1000;
  const [method, path, status] = rng.pick([
    ["GET", "/", 200],
    ["GET", `/products/${rng.pick(SLUGS)}`, 200],
    ["GET", `/api/v1/cart`, 200],
    ["POST", `/api/v1/cart/items`, 201],
    ["GET", `/api/v1/orders/${digits(rng, 5)}`, rng.chance(0.9) ? 200 : 404],
    [
      "GET",
      `/api/v1/search?q=${rng.pick(["lamp", "scarf", "skillet", "vest"])}&page=${rng.range(1, 4)}`,
      200,
    ],
    ["GET", `/invoices/INV-${digits(rng, 6)}.pdf`, 200],
    ["GET", "/account/orders", rng.chance(0.8) ? 200 : 302],
  ] as const);
  return {
    ...base,
    method,
    path,
    status,
    bytes: status === 302 ? 154 : rng.range(300, 48_000),
    referer: rng.chance(0.6) ? `${SITE}${rng.pick(["/", "/cart", "/account/orders"])}` : "-",
    rt,
    upstream: upstreamOf(rng, rt),
  };
}

export const accessLog: Shape = {
  name: "access-log",
  generate(rng, chars): GeneratedFile {
    // One request every second or few: no two lines share a second.
    const clock = new Clock(rng, [1000, 4000]);
    const clients = Array.from({ length: 45 }, () =>
      rng.chance(0.5)
        ? ipv4(rng)
        : `${rng.pick(["203.0.113", "198.51.100", "192.0.2"])}.${rng.range(2, 254)}`,
    );
    const hits: Hit[] = [];
    let size = 0;
    while (size < chars) {
      const h = hitOf(rng, clock, clients);
      hits.push(h);
      size += render(h).length + 1;
    }
    // Nothing drawn at random is a gateway error or a 502-byte body: those are planted.
    for (const h of hits) if (h.bytes === 502) h.bytes = 503;
    const n = hits.length;
    const [lookupAt, twinAt, checkoutAt, keyAt, nearAt, ...rest] = shuffled(rng, spots(rng, n, 11));
    const [bytesAt, timeoutAt, firstBad, ...laterBad] = rest.sort((a, b) => a - b);

    // lookup: the client that fetched one invoice; a lookalike invoice went to another client.
    const target = hits[lookupAt!]!;
    const invoice = `/invoices/INV-${digits(rng, 6)}.pdf`;
    Object.assign(target, { method: "GET", path: invoice, status: 200 });
    const twin = hits[twinAt!]!;
    Object.assign(twin, { method: "GET", path: lookalike(rng, invoice), status: 200 });
    while (twin.client === target.client) twin.client = rng.pick(clients);
    // Neighbours' clients, unless one holds the other (10.0.0.1 in 10.0.0.15): whole values differ.
    const lookupDecoys = [twin, hits[lookupAt! - 1], hits[lookupAt! + 1]].flatMap((h) =>
      h && !h.client.includes(target.client) && !target.client.includes(h.client) ? [h.client] : [],
    );

    // ordinal: the first 502; before it, a 200 whose body was 502 bytes and a 504.
    const gatewayError = (h: Hit, status: number) => {
      // Only proxied requests fail at the gateway: a static file becomes an API call.
      if (!h.upstream)
        Object.assign(h, { method: "GET", path: `/api/v1/orders/${digits(rng, 5)}` });
      const rt = status === 504 ? 60 : rng.range(1, 30) / 1000;
      Object.assign(h, {
        status,
        bytes: 559 - (status - 502) * 2,
        rt,
        upstream: upstreamOf(rng, rt),
      });
    };
    Object.assign(hits[bytesAt!]!, { status: 200, bytes: 502 });
    gatewayError(hits[timeoutAt!]!, 504);
    const bad = [firstBad!, ...laterBad].map((i) => hits[i]!);
    for (const h of bad) gatewayError(h, 502);
    const stamp = (h: Hit) => clf(h.time).replace(" +0000", "");
    const firstTime = stamp(bad[0]!);

    // cross-field: the upstream response time of the one checkout of a client with other calls.
    const buyer = hits[checkoutAt!]!;
    const rt = rng.range(1000, 2400) / 1000;
    Object.assign(buyer, {
      method: "POST",
      path: "/api/v1/checkout",
      status: 201,
      referer: `${SITE}/cart`,
      rt,
      upstream: upstreamOf(rng, rt, true),
    });
    for (const h of hits)
      if (h !== buyer && h.path === "/api/v1/checkout")
        Object.assign(h, { method: "GET", path: "/api/v1/cart" });
    const sameClient = hits.filter((h) => h !== buyer && h.client === buyer.client && h.upstream);
    const fresh = hits.filter((h) => h.upstream && h.client !== buyer.client);
    while (sameClient.length < 3) {
      const h = fresh.splice(rng.int(fresh.length), 1)[0]!;
      if (bad.includes(h) || Math.abs(hits.indexOf(h) - lookupAt!) <= 1 || h === twin) continue;
      h.client = buyer.client;
      sameClient.push(h);
    }
    const urt = buyer.upstream![2];
    for (const h of sameClient)
      while (secs(h.upstream![2]) === secs(urt)) h.upstream = upstreamOf(rng, h.rt + 0.01);
    const ms = Math.round(urt * 1000);

    // pattern: one URL carries an API key (32 hex); a stylesheet's cache buster is 32 hex too.
    const key = hex(rng, 32);
    Object.assign(hits[keyAt!]!, {
      method: "GET",
      path: `/api/v2/export?format=csv&api_key=${key}`,
      status: 200,
      agent: "python-requests/2.31.0",
      referer: "-",
    });
    const buster = hex(rng, 32);
    Object.assign(hits[nearAt!]!, { method: "GET", path: `/static/css/print.css?v=${buster}` });

    return {
      name: "access.log",
      text: `${hits.map(render).join("\n")}\n`,
      questions: [
        {
          kind: "lookup",
          expected: target.client,
          decoys: lookupDecoys,
          phrasings: [
            `Which client IP downloaded ${invoice}? The log is {file}.`,
            `In {file}, who requested ${invoice}? Give me the IP address.`,
            `{file}: what's the client address on the request for ${invoice}?`,
            `Someone fetched the invoice at ${invoice}. From which IP, according to {file}?`,
            `Find the GET of ${invoice} in the access log {file} and report the remote address.`,
          ],
        },
        {
          kind: "ordinal",
          expected: firstTime,
          accepted: [firstTime.slice(-8)],
          decoys: [hits[bytesAt!]!, hits[timeoutAt!]!, ...bad.slice(1)].map(stamp),
          phrasings: [
            "When did the first 502 show up in {file}? Give the timestamp.",
            "At what time did the server first answer with status 502 (bad gateway)? See {file}.",
            "{file}: timestamp of the earliest request that got a 502?",
            "I'm trying to date the start of the outage. What's the time of the first Bad Gateway response in {file}?",
            "Find the first line in {file} whose status code is 502 and tell me its time.",
          ],
        },
        {
          kind: "cross-field",
          expected: secs(urt),
          accepted: [`${secs(urt)}s`, `${ms} ms`, `${ms}ms`],
          // The client's other upstream times, none on the checkout line itself (its rt, uht, or
          // the client address), which a report quoting that line names beside the answer.
          decoys: sameClient
            .map((h) => secs(h.upstream![2]))
            .filter((d) => !holdsValue(render(buyer), d))
            .slice(0, 4),
          phrasings: [
            `What was the upstream response time of the checkout POST from ${buyer.client}? See {file}.`,
            `In {file}, what urt did client ${buyer.client} get on POST /api/v1/checkout?`,
            `{file}: ${buyer.client} checked out once. How long did the upstream take to respond?`,
            `How many seconds did the backend take for ${buyer.client}'s checkout request, per the urt field in {file}?`,
            `Give me the upstream_response_time for method POST on /api/v1/checkout from IP ${buyer.client} (file {file}).`,
          ],
        },
        {
          kind: "pattern",
          expected: key,
          decoys: [buster],
          phrasings: [
            "An API key leaked into a request URL in {file}. What is the key?",
            "Which API key (32 hex characters) was passed in a query string in {file}? Report it exactly.",
            "{file}: somebody put their api key in the URL. Give me the key so I can rotate it.",
            "Find the request in {file} that carries an API key and tell me the key's value.",
            "What api_key value appears in {file}?",
          ],
        },
      ],
    };
  },
};
