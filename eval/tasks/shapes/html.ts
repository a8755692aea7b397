/**
 * A status page in HTML: head, navigation, a table of services by region (rows with data-id and
 * data-region attributes), a table of incidents newest first (rows with an id, severity, times,
 * owner), incident updates as articles and paragraphs, a footer. Questions: the owner of an
 * incident, the earliest SEV-1, the p95 latency of one service in one region, the one CVE.
 */
import type { Rng } from "../../../src/core/rng.js";
import { holdsValue } from "../score.js";
import type { GeneratedFile, Shape } from "../types.js";
import { Clock, digits, hex, lookalike, personOf, shuffled, spots } from "../vocab.js";

const SERVICES = [
  "checkout-api",
  "payments-gateway",
  "inventory-sync",
  "search-api",
  "auth-service",
  "shipping-rates",
  "notifications",
  "catalog-api",
];
const REGIONS = ["eu-west-1", "eu-central-1", "us-east-1", "us-west-2", "ap-southeast-2"];
const STATES = [
  ["ok", "Operational"],
  ["ok", "Operational"],
  ["ok", "Operational"],
  ["warn", "Degraded performance"],
  ["maint", "Under maintenance"],
] as const;
const TITLES = [
  "Elevated error rates on {svc}",
  "Delayed order confirmation emails",
  "Search results missing new products",
  "Payment authorizations timing out in {region}",
  "Slow page loads for logged-in customers",
  "Stock levels not updating on {svc}",
  "Intermittent login failures",
  "Shipping quotes unavailable for some destinations",
];

interface Incident {
  id: string;
  title: string;
  sev: 1 | 2 | 3;
  services: string;
  started: Date;
  minutes: number;
  owner: string;
}

const pad = (n: number) => String(n).padStart(2, "0");
const shown = (d: Date) =>
  `${d.toLocaleString("en-US", { month: "short", timeZone: "UTC" })} ${d.getUTCDate()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
const time = (d: Date) =>
  `<time datetime="${d.toISOString().replace(/\.\d{3}Z$/, "Z")}">${shown(d)}</time>`;

function serviceRow(id: string, svc: string, region: string, rng: Rng, p95: number): string {
  const [cls, label] = rng.pick(STATES);
  return [
    `          <tr data-id="${id}" data-region="${region}">`,
    `            <td class="name">${svc}</td>`,
    `            <td class="region">${region}</td>`,
    `            <td class="status"><span class="badge badge--${cls}">${label}</span></td>`,
    `            <td class="uptime">99.${rng.range(800, 999)}%</td>`,
    `            <td class="latency">${p95} ms</td>`,
    "          </tr>",
  ].join("\n");
}

function incidentRow(i: Incident): string {
  const ended = new Date(i.started.getTime() + i.minutes * 60_000);
  return [
    `          <tr id="${i.id}" data-severity="sev${i.sev}" class="incident incident--resolved">`,
    `            <td><a href="/incidents/${i.id}">${i.id}</a></td>`,
    `            <td class="title">${i.title}</td>`,
    `            <td class="severity"><span class="sev sev--${i.sev}">SEV-${i.sev}</span></td>`,
    `            <td class="services">${i.services}</td>`,
    `            <td>${time(i.started)}</td>`,
    `            <td>${time(ended)}</td>`,
    `            <td class="owner">${i.owner}</td>`,
    "          </tr>",
  ].join("\n");
}

function update(i: Incident, paragraphs: string[]): string {
  return [
    `      <article class="incident-update" data-incident="${i.id}">`,
    `        <h3>${i.title} <small>(${i.id})</small></h3>`,
    ...paragraphs.map((p) => `        <p>${p}</p>`),
    "      </article>",
  ].join("\n");
}

export const html: Shape = {
  name: "html",
  generate(rng, chars): GeneratedFile {
    // Services: every service in every region, p95 latencies all different.
    const latencies = shuffled(
      rng,
      Array.from({ length: 900 }, (_, i) => i + 100),
    );
    // The services table takes at most about a third of the page.
    const regions = REGIONS.slice(0, Math.max(2, Math.min(5, Math.round(chars / 7600))));
    const services = SERVICES.flatMap((svc) =>
      regions.map((region) => ({ id: `svc-${hex(rng, 6)}`, svc, region, p95: latencies.pop()! })),
    );
    const serviceRows = services.map((s) => serviceRow(s.id, s.svc, s.region, rng, s.p95));

    // Incidents, drawn oldest first, shown newest first.
    const clock = new Clock(rng, [3 * 3600_000, 40 * 3600_000]);
    const incidents: Incident[] = [];
    const ids = new Set<string>();
    let number = rng.range(10_000, 60_000);
    let size = serviceRows.join("\n").length + 6000;
    while (size < chars || incidents.length < 12) {
      // Incident numbers grow with time.
      number += rng.range(1, 40);
      const id = `INC-${number}`;
      ids.add(id);
      const svc = rng.pick(SERVICES);
      const person = personOf(rng);
      const incident: Incident = {
        id,
        title: rng.pick(TITLES).replace("{svc}", svc).replace("{region}", rng.pick(REGIONS)),
        sev: rng.chance(0.4) ? 2 : 3,
        services: rng.chance(0.5) ? svc : `${svc}, ${rng.pick(SERVICES.filter((s) => s !== svc))}`,
        started: clock.next(),
        minutes: rng.range(8, 300),
        owner: `${person.first} ${person.last}`,
      };
      incidents.push(incident);
      size += incidentRow(incident).length + 1;
    }
    const n = incidents.length;
    // Positions in time order (0 = oldest).
    const [lookupAt, twinAt, cveAt, nearAt, ...rest] = shuffled(rng, spots(rng, n, 7, 0.1, 0.95));
    const sev1 = rest.sort((a, b) => a - b).map((i) => incidents[i]!);
    incidents[0]!.sev = 2;

    // lookup: the owner of an incident; a lookalike id (one digit apart) has another owner.
    const target = incidents[lookupAt!]!;
    const twin = incidents[twinAt!]!;
    let twinId = lookalike(rng, target.id);
    while (ids.has(twinId)) twinId = lookalike(rng, target.id);
    twin.id = twinId;
    const ownerDecoys = [twin, incidents[lookupAt! - 1], incidents[lookupAt! + 1]].flatMap((i) =>
      i && i.owner !== target.owner ? [i.owner] : [],
    );

    // ordinal: the earliest SEV-1, the lowest of three in a table sorted newest first; the
    // oldest incident of all, below it, is a SEV-2.
    for (const i of sev1) i.sev = 1;

    // cross-field: the p95 of one service in one region.
    const asked = rng.pick(services);
    const askedRow = serviceRows[services.indexOf(asked)]!;
    const latencyDecoys = services
      .filter((s) => s !== asked && (s.svc === asked.svc || s.region === asked.region))
      .map((s) => String(s.p95))
      .filter((d) => !holdsValue(askedRow, d))
      .slice(0, 6);

    // pattern: one update names a CVE; another an internal advisory of a similar form.
    const cve = `CVE-2026-${rng.range(2, 4)}${digits(rng, 4)}`;
    const advisory = `SEC-2026-${digits(rng, 4)}`;
    const updates = [
      update(incidents[cveAt!]!, [
        `<strong>Resolved</strong> ${time(incidents[cveAt!]!.started)}: we rotated the TLS terminators after the upstream fix for ${cve}. No customer data was exposed.`,
        "<strong>Investigating</strong>: some requests were reset during the rollout.",
      ]),
      update(incidents[nearAt!]!, [
        `<strong>Resolved</strong>: the configuration change is tracked internally as ${advisory}; error rates are back to normal.`,
        "<strong>Monitoring</strong>: we are watching latency in all regions.",
      ]),
      update(sev1.at(-1)!, [
        "<strong>Resolved</strong>: failover completed and queues drained.",
        "<strong>Identified</strong>: a primary database lost its replica quorum.",
      ]),
    ];
    const newest = incidents.at(-1)!.started;
    const text = [
      "<!DOCTYPE html>",
      '<html lang="en">',
      "<head>",
      '  <meta charset="utf-8">',
      '  <meta name="viewport" content="width=device-width, initial-scale=1">',
      "  <title>Shop Platform Status</title>",
      `  <link rel="stylesheet" href="/assets/status.${hex(rng, 8)}.css">`,
      '  <link rel="alternate" type="application/rss+xml" href="/history.rss" title="Incident history">',
      "</head>",
      "<body>",
      '  <header class="site-header">',
      '    <nav aria-label="Main">',
      '      <a href="/" class="brand">Shop Status</a>',
      "      <ul>",
      ...["Services", "Incidents", "Maintenance", "Subscribe"].map(
        (l) => `        <li><a href="/${l.toLowerCase()}">${l}</a></li>`,
      ),
      "      </ul>",
      "    </nav>",
      "  </header>",
      "  <main>",
      '    <section id="summary">',
      "      <h1>Some systems are degraded</h1>",
      `      <p class="updated">Last updated ${time(newest)}</p>`,
      "    </section>",
      '    <section id="services">',
      "      <h2>Services</h2>",
      '      <table class="services">',
      "        <thead>",
      "          <tr><th>Service</th><th>Region</th><th>Status</th><th>Uptime (90 days)</th><th>p95 latency</th></tr>",
      "        </thead>",
      "        <tbody>",
      ...serviceRows,
      "        </tbody>",
      "      </table>",
      "    </section>",
      '    <section id="incidents">',
      "      <h2>Incident history</h2>",
      '      <table class="incidents">',
      "        <thead>",
      "          <tr><th>ID</th><th>Title</th><th>Severity</th><th>Services</th><th>Started</th><th>Resolved</th><th>Owner</th></tr>",
      "        </thead>",
      "        <tbody>",
      ...[...incidents].reverse().map(incidentRow),
      "        </tbody>",
      "      </table>",
      "    </section>",
      '    <section id="updates">',
      "      <h2>Recent updates</h2>",
      ...updates,
      "    </section>",
      "  </main>",
      '  <footer class="site-footer">',
      '    <p>Subscribe to updates by <a href="/subscribe">e-mail or RSS</a>. Times are in UTC.</p>',
      "  </footer>",
      "</body>",
      "</html>",
      "",
    ].join("\n");
    return {
      name: "status.html",
      text,
      questions: [
        {
          kind: "lookup",
          expected: target.owner,
          decoys: ownerDecoys,
          phrasings: [
            `Who owns incident ${target.id}? The status page is {file}.`,
            `In {file}, what is the owner listed for ${target.id}?`,
            `{file}: ${target.id}, owner?`,
            `Who was responsible for handling ${target.id}, according to the status page {file}?`,
            `Find the row of incident ${target.id} in {file} and tell me the name in its owner column.`,
          ],
        },
        {
          kind: "ordinal",
          expected: sev1[0]!.id,
          decoys: [incidents[0]!.id, ...sev1.slice(1).map((i) => i.id)],
          phrasings: [
            "What was the earliest SEV-1 incident on the status page {file}? Give its id.",
            "In {file}, which SEV-1 incident started first? The table is sorted newest first.",
            "{file}: oldest sev1, which incident id?",
            "Looking at the incident history in {file}, what's the id of the first severity-1 incident that ever happened?",
            "Which incident was the first one rated SEV-1, by start time, in {file}?",
          ],
        },
        {
          kind: "cross-field",
          expected: String(asked.p95),
          accepted: [`${asked.p95} ms`, `${asked.p95}ms`],
          decoys: latencyDecoys,
          phrasings: [
            `What is the p95 latency of ${asked.svc} in ${asked.region}? See {file}.`,
            `In {file}, which p95 latency does the services table show for ${asked.svc}, region ${asked.region}?`,
            `{file}: ${asked.svc} @ ${asked.region}, p95?`,
            `How fast is ${asked.svc} in the ${asked.region} region right now (95th percentile), according to {file}?`,
            `Find the row with service ${asked.svc} and region ${asked.region} in {file} and give me its p95 latency.`,
          ],
        },
        {
          kind: "pattern",
          expected: cve,
          decoys: [advisory],
          phrasings: [
            "Which CVE does the status page {file} mention?",
            "One incident update in {file} refers to a vulnerability by its CVE number. Which one?",
            "{file}: what CVE id appears in the updates?",
            "Is there a security advisory in {file} with a CVE identifier? Give me the identifier.",
            "Find the CVE-YYYY-NNNN number in {file}.",
          ],
        },
      ],
    };
  },
};
