/**
 * A long operations runbook in Markdown: a title, contents, numbered `##` sections with
 * paragraphs, `###` subsections, bullet and numbered lists, tables (host inventory, on-call),
 * fenced code blocks, `> **Note:**` callouts and a changelog. Questions: a host's IP from the
 * inventory table, the boot marker a note names (asked in plain words), the first section that
 * mentions something, the on-call of a team in a region, the one SHA-256 checksum.
 */
import type { Rng } from "../../../src/core/rng.js";
import type { GeneratedFile, Shape } from "../types.js";
import { FIRST_NAMES, hex, ipv4, LAST_NAMES, lookalike, shuffled } from "../vocab.js";

const words = (list: string) => list.trim().split(/\s+/);

const ACTIONS = [
  "Failing over",
  "Restarting",
  "Scaling",
  "Draining",
  "Restoring",
  "Upgrading",
  "Pausing",
  "Rebuilding",
  "Checking",
  "Rotating the credentials of",
];
const OBJECTS = [
  "the orders database",
  "the payment queue",
  "the search index",
  "the checkout workers",
  "the message broker",
  "the CDN cache",
  "the session store",
  "the webhook relay",
  "the export jobs",
  "the image resizer",
  "a Kubernetes node",
  "the pricing service",
];
const SENTENCES = [
  "Start by confirming the alert in the dashboard; a single flapping check is not an incident.",
  "Announce the work in #ops-bridge before you change anything.",
  "If customers are affected, post an update on the status page within fifteen minutes.",
  "Keep a timeline in the incident document as you go.",
  "Most of the time the cause is a recent deploy, so check the release log first.",
  "Do not restart more than one host at a time.",
  "Expect a short spike in latency while connections are re-established.",
  "The whole procedure takes about twenty minutes end to end.",
  "Ask for a second pair of eyes before running anything destructive.",
  "Metrics lag by up to a minute, so wait before you judge the effect of a change.",
  "Write down every command you ran; the postmortem will need them.",
];
const SYMPTOMS = [
  "Error rate above 2% for five minutes",
  "p95 latency over 800 ms on the checkout path",
  "Queue depth growing steadily",
  "Health checks failing on one or more hosts",
  "Customers reporting timeouts at checkout",
  "Disk usage above 90% on a data volume",
];
const CALLOUTS = [
  "> **Note:** The dashboards live under Grafana → Shop → Platform.",
  "> **Warning:** Never run this against the primary during business hours without a second approver.",
  "> **Tip:** `kubectl get events --sort-by=.lastTimestamp` shows what changed recently.",
];
const BIRDS = words("KESTREL HERON OSPREY FALCON PLOVER SWIFT EGRET CONDOR MERLIN ORIOLE");
/** Terms one procedure mentions first, two later ones again, with the sentence that does. */
const TERMS = [
  ["break-glass account", "If you need the break-glass account, record who used it and why."],
  ["read-only mode", "Put the shop in read-only mode first if orders could be lost."],
  ["maintenance banner", "Turn on the maintenance banner before customers notice the slowdown."],
] as const;
const TEAMS = ["Payments", "Orders", "Search", "Platform", "Identity"];
const ZONES = ["EU", "US", "APAC"];

interface Host {
  name: string;
  role: string;
  ip: string;
  rack: string;
}

/** A fenced block of commands: read-only checks, or a change. */
function commands(rng: Rng, hosts: Host[], change: boolean): string[] {
  const of = (role: string) =>
    rng.pick(hosts.filter((h) => h.role === role).concat(hosts[0]!)).name;
  const host = rng.pick(hosts).name;
  const svc = rng.pick(["orders", "checkout", "broker", "search", "webhooks"]);
  const lines = change
    ? rng.pick([
        [
          `kubectl -n shop rollout restart deploy/${svc}`,
          `kubectl -n shop rollout status deploy/${svc}`,
        ],
        [`ssh ${host}`, `sudo systemctl restart ${svc}.service`],
        [`kubectl -n shop scale deploy/${svc} --replicas=${rng.range(3, 12)}`],
      ])
    : rng.pick([
        [`ssh ${host}`, `sudo systemctl status ${svc}.service --no-pager`],
        [`kubectl -n shop get pods -l app=${svc} -o wide`],
        [`curl -fsS http://${of("app")}:8080/healthz`],
        [`psql -h ${of("db")} -U ops -c "select now() - pg_last_xact_replay_timestamp();"`],
      ]);
  return ["```bash", ...lines, "```"];
}

/** A procedure section: intro, symptoms, steps with code, a callout, rollback. */
function section(rng: Rng, n: number, title: string, intro: string[], hosts: Host[]): string[] {
  const para = () => shuffled(rng, SENTENCES).slice(0, rng.range(2, 3)).join(" ");
  return [
    `## ${n}. ${title}`,
    "",
    [...intro, para()].join(" "),
    "",
    "### Symptoms",
    "",
    ...shuffled(rng, SYMPTOMS)
      .slice(0, rng.range(2, 4))
      .map((s) => `- ${s}`),
    "",
    "### Steps",
    "",
    "1. Check the current state:",
    "",
    ...commands(rng, hosts, false),
    "",
    `2. ${para()}`,
    "3. Apply the change:",
    "",
    ...commands(rng, hosts, true),
    "",
    "4. Verify that the dashboard is green again.",
    "",
    ...(rng.chance(0.5) ? [rng.pick(CALLOUTS), ""] : []),
    "### Rollback",
    "",
    para(),
    "",
  ];
}

export const markdown: Shape = {
  name: "markdown",
  generate(rng, chars): GeneratedFile {
    // Hosts: role-site-number, each name once.
    const names = new Set<string>();
    const hosts: Host[] = [];
    while (hosts.length < 24) {
      const name = `${rng.pick(["db", "app", "cache", "mq", "lb"])}-${rng.pick(["ams", "fra", "dub"])}-${String(rng.range(1, 29)).padStart(2, "0")}`;
      if (names.has(name)) continue;
      names.add(name);
      hosts.push({ name, role: name.split("-")[0]!, ip: ipv4(rng), rack: `R${rng.range(1, 40)}` });
    }
    // lookup: a host's IP; a lookalike host (number one digit apart) is listed too.
    const [targetAt, twinAt] = shuffled(rng, [...hosts.keys()].slice(2, 22));
    const target = hosts[targetAt!]!;
    const twin = hosts[twinAt!]!;
    const [role, site, num] = target.name.split("-") as [string, string, string];
    let twinName = target.name;
    while (names.has(twinName)) twinName = `${role}-${site}-${lookalike(rng, num)}`;
    twin.name = twinName;
    twin.role = role;

    // cross-field: the on-call of a team in a region; every row a different person.
    const people = shuffled(
      rng,
      FIRST_NAMES.flatMap((f) => LAST_NAMES.map((l) => `${f} ${l}`)),
    );
    const oncall = TEAMS.flatMap((team) =>
      ZONES.map((zone) => ({
        team,
        zone,
        primary: people.pop()!,
        alias: `@${team.toLowerCase()}-${zone.toLowerCase()}-oncall`,
      })),
    );
    const asked = rng.pick(oncall);

    // Markers: the boot marker in a note, others in other notes, a retired one named early.
    const [boot, retired, drain, shutdown] = shuffled(rng, BIRDS);
    const bootMarker = `BOOT-MARKER-${boot}`;
    const retiredMarker = `BOOT-MARKER-${retired}`;
    const drainMarker = `DRAIN-MARKER-${drain}`;
    const shutdownMarker = `SHUTDOWN-MARKER-${shutdown}`;

    // Procedure titles, enough for the asked size (about 1,050 characters a section).
    const titles = shuffled(
      rng,
      ACTIONS.flatMap((a) => OBJECTS.map((o) => `${a} ${o}`)),
    ).slice(0, Math.max(12, Math.round((chars - 5000) / 1050)));
    const coldAt = rng.range(3, titles.length - 2);
    titles.splice(coldAt, 0, "Cold start of the platform");
    const procedures = titles.map((title) => ({
      title,
      intro: [] as string[],
      extra: [] as string[],
    }));
    procedures[coldAt]!.intro.push(
      "Use this after a full outage, when every app host was powered off.",
    );
    procedures[coldAt]!.extra.push(
      `> **Note:** The boot marker for this release is \`${bootMarker}\`. Wait until it appears in the console of every app host before you re-enable traffic.`,
      "",
    );
    const others = shuffled(
      rng,
      [...procedures.keys()].filter((i) => i !== coldAt),
    );
    procedures[others[0]!]!.extra.push(
      `> **Note:** When the drain is complete the console prints \`${drainMarker}\`.`,
      "",
    );
    procedures[others[1]!]!.extra.push(
      `> **Note:** A clean shutdown ends with \`${shutdownMarker}\` in the journal.`,
      "",
    );

    // ordinal: the first section mentioning a term, which two later sections mention too.
    const [term, sentence] = rng.pick(TERMS);
    const mentions = others.slice(2, 5).sort((a, b) => a - b);
    for (const i of mentions) procedures[i]!.intro.push(sentence);
    const firstTitle = procedures[mentions[0]!]!.title;
    const before =
      mentions[0]! > 0 ? procedures[mentions[0]! - 1]!.title : "On-call and escalation";

    // pattern: the rescue tool's SHA-256 in a code block; an MD5 and a commit are near misses.
    const sha256 = hex(rng, 64);
    const md5 = hex(rng, 32);
    const commit = hex(rng, 40);
    procedures[others[5]!]!.extra.push(
      "Install the rescue tool if the host does not have it yet:",
      "",
      "```bash",
      "curl -fsSLO https://downloads.example.com/tools/pgrescue-2.4.1-linux-amd64.tar.gz",
      `echo "${sha256}  pgrescue-2.4.1-linux-amd64.tar.gz" | sha256sum -c -`,
      "```",
      "",
    );
    procedures[others[6]!]!.extra.push(
      "The legacy exporter is pinned to a known-good build:",
      "",
      "```bash",
      `git -C /opt/exporter checkout ${commit}`,
      `md5sum /opt/exporter/bin/exporter   # expect ${md5}`,
      "```",
      "",
    );

    const sections = procedures.map((p, i) => {
      const body = section(rng, i + 4, p.title, p.intro, hosts);
      const at = body.indexOf("### Rollback");
      body.splice(at, 0, ...p.extra);
      return body;
    });
    const text = [
      "# Orders platform runbook",
      "",
      `Owner: Platform team · Last reviewed: 2026-0${rng.range(1, 9)}-${rng.range(10, 28)}`,
      "",
      "## Contents",
      "",
      "1. [Overview](#1-overview)",
      "2. [Host inventory](#2-host-inventory)",
      "3. [On-call and escalation](#3-on-call-and-escalation)",
      ...procedures.map((p, i) => `${i + 4}. ${p.title}`),
      "",
      "## 1. Overview",
      "",
      "This runbook covers the hosts and services behind order placement, payment and fulfilment. Each procedure lists the symptoms that call for it, the steps, and how to roll back.",
      "",
      `Older copies of this runbook name \`${retiredMarker}\` as the boot marker; it was retired with the 2025 release and no longer appears.`,
      "",
      "## 2. Host inventory",
      "",
      "| Host | Role | IP | Rack |",
      "|------|------|----|------|",
      ...hosts.map((h) => `| ${h.name} | ${h.role} | ${h.ip} | ${h.rack} |`),
      "",
      "## 3. On-call and escalation",
      "",
      "| Team | Region | Primary on-call | Escalation alias |",
      "|------|--------|-----------------|------------------|",
      ...oncall.map((o) => `| ${o.team} | ${o.zone} | ${o.primary} | ${o.alias} |`),
      "",
      ...sections.flat(),
      "## Changelog",
      "",
      "| Date | Change |",
      "|------|--------|",
      "| 2026-01-12 | Added the cold start procedure |",
      "| 2025-11-03 | Moved the on-call table into this runbook |",
      "",
    ].join("\n");

    const sameRow = (o: (typeof oncall)[number]) =>
      o !== asked && (o.team === asked.team || o.zone === asked.zone);
    return {
      name: "runbook.md",
      text,
      questions: [
        {
          kind: "lookup",
          expected: target.ip,
          decoys: [twin.ip, hosts[targetAt! - 1]!.ip, hosts[targetAt! + 1]!.ip],
          phrasings: [
            `What is the IP address of ${target.name}? The runbook is {file}.`,
            `In {file}, which IP does the host inventory list for ${target.name}?`,
            `{file}: ${target.name} IP?`,
            `I need to ssh into ${target.name} by address. What IP does the runbook {file} give?`,
            `Look up host ${target.name} in the inventory table of {file} and tell me its IP.`,
          ],
        },
        {
          kind: "lookup",
          expected: bootMarker,
          decoys: [retiredMarker, drainMarker, shutdownMarker],
          phrasings: [
            "What boot marker should I wait for after a cold start? See {file}.",
            "{file}: the boot marker note, which marker does it name?",
            "Which marker does the runbook's note on booting tell us to look for in the console? The runbook is {file}.",
            "In {file}, what is the current boot marker?",
            "After a cold start, what has to show up in the console before traffic goes back on? Check {file}.",
          ],
        },
        {
          kind: "ordinal",
          expected: firstTitle,
          decoys: [before, ...mentions.slice(1).map((i) => procedures[i]!.title)],
          phrasings: [
            `Which section of {file} first mentions the ${term}?`,
            `In the runbook {file}, what is the first section that talks about the ${term}?`,
            `{file}: first section with "${term}" in it?`,
            `Reading {file} from the top, where does the ${term} come up first? Give me the section title.`,
            `Find the earliest section heading under which {file} mentions the ${term}.`,
          ],
        },
        {
          kind: "cross-field",
          expected: asked.primary,
          decoys: oncall.filter(sameRow).map((o) => o.primary),
          phrasings: [
            `Who is the primary on-call for ${asked.team} in ${asked.zone}? See {file}.`,
            `In {file}, which person is primary on-call for team ${asked.team}, region ${asked.zone}?`,
            `{file}: ${asked.team} / ${asked.zone} primary on-call?`,
            `Something's broken in ${asked.team} in the ${asked.zone} region. Who do I page first, according to {file}?`,
            `Look up the escalation table in {file}: the row with team ${asked.team} and region ${asked.zone}. Who is the primary?`,
          ],
        },
        {
          kind: "pattern",
          expected: sha256,
          decoys: [md5, commit],
          phrasings: [
            "What SHA-256 checksum does the runbook {file} give?",
            "Which sha256 hash (64 hex characters) appears in a code block of {file}?",
            "{file}: the SHA-256 we verify the download against?",
            "I'm downloading the rescue tool and want to check it. What's the checksum in {file}?",
            "Find the 64-character hex checksum in {file} and copy it exactly.",
          ],
        },
      ],
    };
  },
};
