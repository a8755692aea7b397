/**
 * A Windows event log exported as text (`wevtutil qe … /f:text` from a domain controller), every
 * line ending in CRLF: `Event[n]:` blocks with indented header fields and a description with
 * tab-aligned sections (logons, logoffs, failed logons, lockouts, group changes, service events).
 * Questions: the account behind a logon ID, the first account locked out, the source address of
 * one account's failed logon from one workstation, the one unresolved domain SID.
 */
import type { Rng } from "../../../src/core/rng.js";
import type { GeneratedFile, Shape } from "../types.js";
import { Clock, digits, ipv4, personOf, shuffled, spots } from "../vocab.js";

interface Event {
  log: "Security" | "System";
  source: string;
  id: number;
  task: string;
  level: string;
  keyword: string;
  user: [string, string];
  description: string[];
}

const HEX = "0123456789ABCDEF";
const NONE: [string, string] = ["N/A", "N/A"];
const SERVICES = [
  "Windows Update",
  "Background Intelligent Transfer Service",
  "Windows Modules Installer",
  "Print Spooler",
  "Windows Defender Antivirus Service",
];

const security = (id: number, task: string, keyword: string, description: string[]): Event => ({
  log: "Security",
  source: "Microsoft-Windows-Security-Auditing",
  id,
  task,
  level: "Information",
  keyword,
  user: NONE,
  description,
});

const subject = (sid: string, name: string, domain: string, logonId: string) => [
  "Subject:",
  `\tSecurity ID:\t\t${sid}`,
  `\tAccount Name:\t\t${name}`,
  `\tAccount Domain:\t\t${domain}`,
  `\tLogon ID:\t\t${logonId}`,
  "",
];
const network = (workstation: string, ip: string, port: number) => [
  "Network Information:",
  `\tWorkstation Name:\t${workstation}`,
  `\tSource Network Address:\t${ip}`,
  `\tSource Port:\t\t${port}`,
];

function logon(account: string, logonId: string, workstation: string, ip: string, rng: Rng): Event {
  return security(4624, "Logon", "Audit Success", [
    "An account was successfully logged on.",
    "",
    ...subject("NULL SID", "-", "-", "0x0"),
    "Logon Information:",
    "\tLogon Type:\t\t3",
    "\tElevated Token:\t\tNo",
    "",
    "New Logon:",
    `\tSecurity ID:\t\tCORP\\${account}`,
    `\tAccount Name:\t\t${account}`,
    "\tAccount Domain:\t\tCORP",
    `\tLogon ID:\t\t${logonId}`,
    "",
    ...network(workstation, ip, rng.range(49152, 65535)),
    "",
    "Detailed Authentication Information:",
    "\tLogon Process:\t\tKerberos",
    "\tAuthentication Package:\tKerberos",
  ]);
}

function logoff(account: string, logonId: string): Event {
  return security(4634, "Logoff", "Audit Success", [
    "An account was logged off.",
    "",
    ...subject(`CORP\\${account}`, account, "CORP", logonId),
    "Logon Type:\t\t\t3",
  ]);
}

function failed(account: string, workstation: string, ip: string): Event {
  return security(4625, "Logon", "Audit Failure", [
    "An account failed to log on.",
    "",
    ...subject("NULL SID", "-", "-", "0x0"),
    "Logon Type:\t\t\t3",
    "",
    "Account For Which Logon Failed:",
    "\tSecurity ID:\t\tNULL SID",
    `\tAccount Name:\t\t${account}`,
    "\tAccount Domain:\t\tCORP",
    "",
    "Failure Information:",
    "\tFailure Reason:\t\tUnknown user name or bad password.",
    "\tStatus:\t\t\t0xC000006D",
    "\tSub Status:\t\t0xC000006A",
    "",
    ...network(workstation, ip, 0),
  ]);
}

function lockout(account: string, workstation: string): Event {
  return security(4740, "User Account Management", "Audit Success", [
    "A user account was locked out.",
    "",
    ...subject("NT AUTHORITY\\SYSTEM", "DC01$", "CORP", "0x3E7"),
    "Account That Was Locked Out:",
    `\tSecurity ID:\t\tCORP\\${account}`,
    `\tAccount Name:\t\t${account}`,
    "",
    "Additional Information:",
    `\tCaller Computer Name:\t${workstation}`,
  ]);
}

/** A System event: a DCOM warning (as LOCAL SERVICE), a start type change (as SYSTEM), a state change. */
function serviceEvent(rng: Rng, kind = rng.pick([10016, 7040, 7036, 7036, 7036])): Event {
  const name = rng.pick(SERVICES);
  const base = { log: "System" as const, task: "None", level: "Information", keyword: "Classic" };
  if (kind === 10016)
    return {
      ...base,
      source: "Microsoft-Windows-DistributedCOM",
      id: 10016,
      level: "Warning",
      user: ["S-1-5-19", "NT AUTHORITY\\LOCAL SERVICE"],
      description: [
        `The application-specific permission settings do not grant Local Activation permission for the COM Server application with CLSID {${rng.hex(8).toUpperCase()}-${rng.hex(4).toUpperCase()}-${rng.hex(4).toUpperCase()}-${rng.hex(4).toUpperCase()}-${rng.hex(12).toUpperCase()}} to the user NT AUTHORITY\\LOCAL SERVICE SID (S-1-5-19) from address LocalHost (Using LRPC). This security permission can be modified using the Component Services administrative tool.`,
      ],
    };
  if (kind === 7040)
    return {
      ...base,
      source: "Service Control Manager",
      id: 7040,
      user: ["S-1-5-18", "NT AUTHORITY\\SYSTEM"],
      description: [
        `The start type of the ${name} service was changed from demand start to auto start.`,
      ],
    };
  return {
    ...base,
    source: "Service Control Manager",
    id: 7036,
    user: NONE,
    description: [`The ${name} service entered the ${rng.pick(["running", "stopped"])} state.`],
  };
}

function render(e: Event, index: number, date: Date): string {
  return [
    `Event[${index}]:`,
    `  Log Name: ${e.log}`,
    `  Source: ${e.source}`,
    `  Date: ${date.toISOString().slice(0, -1)}`,
    `  Event ID: ${e.id}`,
    `  Task: ${e.task}`,
    `  Level: ${e.level}`,
    "  Opcode: Info",
    `  Keyword: ${e.keyword}`,
    `  User: ${e.user[0]}`,
    `  User Name: ${e.user[1]}`,
    "  Computer: DC01.corp.example.com",
    "  Description: ",
    ...e.description,
    "",
  ].join("\r\n");
}

/** A logon ID one hex digit apart from `id` (never the `0x`). */
function hexLookalike(rng: Rng, id: string): string {
  const at = rng.range(3, id.length - 1);
  const others = HEX.replace(id[at]!, "");
  return id.slice(0, at) + others[rng.int(others.length)] + id.slice(at + 1);
}

export const crlfText: Shape = {
  name: "crlf-text",
  generate(rng, chars): GeneratedFile {
    const accounts = [
      ...new Set(
        Array.from({ length: 40 }, () => personOf(rng)).map((p) =>
          `${p.first[0]}${p.last}`.toLowerCase(),
        ),
      ),
    ].slice(0, 24);
    const stations = Array.from(
      { length: 18 },
      () => `WS-${rng.pick(["FIN", "OPS", "HR", "DEV", "SAL"])}-${digits(rng, 4)}`,
    );
    const logonIds = new Set<string>();
    const logonId = (): string => {
      for (;;) {
        const id = `0x${rng.range(1, 15).toString(16).toUpperCase()}${Array.from({ length: rng.range(5, 7) }, () => HEX[rng.int(16)]).join("")}`;
        if (!logonIds.has(id)) {
          logonIds.add(id);
          return id;
        }
      }
    };
    type Logon = { account: string; id: string };
    const events: (Event & {
      logon?: Logon;
      fail?: { account: string; station: string; ip: string };
    })[] = [];
    const open: Logon[] = [];
    let size = 0;
    while (size < chars * 0.95 || events.length < 28) {
      const roll = rng.float();
      let e: (typeof events)[number];
      if (roll < 0.4) {
        const l = { account: rng.pick(accounts), id: logonId() };
        e = { ...logon(l.account, l.id, rng.pick(stations), ipv4(rng), rng), logon: l };
        open.push(l);
      } else if (roll < 0.6 && open.length > 0) {
        const l = open.splice(rng.int(open.length), 1)[0]!;
        e = logoff(l.account, l.id);
      } else if (roll < 0.75) {
        const f = { account: rng.pick(accounts), station: rng.pick(stations), ip: ipv4(rng) };
        e = { ...failed(f.account, f.station, f.ip), fail: f };
      } else e = serviceEvent(rng);
      events.push(e);
      size += render(e, events.length, new Date(0)).length + 2;
    }
    const logons = events.flatMap((e, i) => (e.logon ? [i] : []));
    const n = events.length;
    const [lookupAt, twinAt] = shuffled(rng, spots(rng, logons.length, 2)).map((i) => logons[i]!);
    const others = [...Array(n).keys()].filter((i) => !events[i]!.logon);
    const [crossAt, sidAt, systemAt, localAt, ...rest] = shuffled(
      rng,
      spots(rng, others.length, 8, 0.1, 0.9),
    ).map((i) => others[i]!);
    events[systemAt!] = serviceEvent(rng, 7040);
    events[localAt!] = serviceEvent(rng, 10016);
    const [earlyAt, ...lockAt] = rest.sort((a, b) => a - b);

    // lookup: the account of a logon ID; a lookalike ID (one hex digit apart) is another's.
    const target = events[lookupAt!]!.logon!;
    const twin = events[twinAt!]!.logon!;
    let twinId = hexLookalike(rng, target.id);
    while (logonIds.has(twinId)) twinId = hexLookalike(rng, target.id);
    const twinAccount = rng.pick(accounts.filter((a) => a !== target.account));
    const oldId = twin.id;
    Object.assign(twin, { account: twinAccount, id: twinId });
    for (const e of events)
      if (e.logon === twin)
        Object.assign(e, logon(twinAccount, twinId, rng.pick(stations), ipv4(rng), rng));
      else if (e.id === 4634 && e.description.some((l) => l.endsWith(`\t${oldId}`)))
        Object.assign(e, logoff(twinAccount, twinId));
    const nearLogons = [
      logons[logons.indexOf(lookupAt!) - 1],
      logons[logons.indexOf(lookupAt!) + 1],
    ]
      .flatMap((i) => (i === undefined ? [] : [events[i]!.logon!.account]))
      .filter((a) => a !== target.account);

    // ordinal: the first account locked out, each lockout after failed logons of its own (in
    // place of service events or logoffs just before it); a failure of another account that was
    // never locked out comes first.
    const [early, ...locked] = shuffled(rng, accounts).slice(0, 4);
    const asked = rng.pick(accounts.filter((a) => a !== early && !locked.includes(a)));
    events[earlyAt!] = failed(early!, rng.pick(stations), ipv4(rng));
    const planted = new Set([crossAt, sidAt, systemAt, localAt, earlyAt, ...lockAt]);
    lockAt.forEach((at, k) => {
      const station = rng.pick(stations);
      events[at] = lockout(locked[k]!, station);
      for (let j = Math.max(0, at - 5); j < at; j++) {
        const e = events[j]!;
        if (!planted.has(j) && (e.log === "System" || e.id === 4634))
          events[j] = failed(locked[k]!, station, ipv4(rng));
      }
    });

    // pattern: one group change shows an unresolved domain SID; well-known SIDs are near misses.
    const sid = `S-1-5-21-${rng.range(1_000_000_000, 4_000_000_000)}-${rng.range(1_000_000_000, 4_000_000_000)}-${rng.range(10_000_000, 99_999_999)}-${rng.range(1100, 9999)}`;
    const admin = `admin-${rng.pick(accounts)}`;
    events[sidAt!] = security(4732, "Security Group Management", "Audit Success", [
      "A member was added to a security-enabled local group.",
      "",
      ...subject(`CORP\\${admin}`, admin, "CORP", logonId()),
      "Member:",
      `\tSecurity ID:\t\t${sid}`,
      "\tAccount Name:\t\t-",
      "",
      "Group:",
      "\tSecurity ID:\t\tBUILTIN\\Administrators",
      "\tGroup Name:\t\tAdministrators",
      "\tGroup Domain:\t\tBuiltin",
    ]);

    // cross-field: the address of one account's failed logon from one workstation; the same
    // account failed from other workstations too.
    const station = rng.pick(stations);
    const crossIp = ipv4(rng);
    events[crossAt!] = {
      ...failed(asked!, station, crossIp),
      fail: { account: asked!, station, ip: crossIp },
    };
    // Other failures of the account move to other workstations; a few more become its own.
    const fails = events.filter((e) => e.fail && e !== events[crossAt!]);
    const elsewhere: string[] = [];
    for (const e of fails) {
      const f = e.fail!;
      if (f.account === asked || elsewhere.length < 2 || rng.chance(0.05)) {
        f.account = asked!;
        while (f.station === station) f.station = rng.pick(stations);
        elsewhere.push(f.ip);
      }
      Object.assign(e, failed(f.account, f.station, f.ip));
    }
    // A small export may hold too few failures: service events and logoffs give way to two more.
    const spare = events.flatMap((e, i) =>
      (e.log === "System" && i !== systemAt && i !== localAt) || e.id === 4634 ? [i] : [],
    );
    while (elsewhere.length < 2 && spare.length > 0) {
      const ip = ipv4(rng);
      const at = spare.splice(rng.int(spare.length), 1)[0]!;
      events[at] = failed(asked, rng.pick(stations.filter((w) => w !== station)), ip);
      elsewhere.push(ip);
    }

    const clock = new Clock(rng, [400, 90_000]);
    const text = `${events.map((e, i) => render(e, i, clock.next())).join("\r\n")}\r\n`;
    return {
      name: "events.txt",
      text,
      questions: [
        {
          kind: "lookup",
          expected: target.account,
          decoys: [twinAccount, ...nearLogons],
          phrasings: [
            `Which account logged on with Logon ID ${target.id}? The export is {file}.`,
            `In {file}, whose logon session is ${target.id}?`,
            `{file}: Logon ID ${target.id}, account name?`,
            `I see logon ID ${target.id} in an alert. Which user was that, according to the event log {file}?`,
            `Find the logon event with Logon ID ${target.id} in {file} and tell me the account that logged on.`,
          ],
        },
        {
          kind: "ordinal",
          expected: locked[0]!,
          decoys: [early!, ...locked.slice(1)],
          phrasings: [
            "Which account was locked out first in {file}?",
            "In the event log {file}, what is the account name in the first lockout event (4740)?",
            "{file}: first account lockout, which user?",
            "Several users got locked out today. Who was the first one, according to {file}?",
            "Find the earliest 'A user account was locked out' event in {file} and give me the account.",
          ],
        },
        {
          kind: "cross-field",
          expected: crossIp,
          decoys: elsewhere.filter((ip) => ip !== crossIp).slice(0, 5),
          phrasings: [
            `From which IP address did ${asked} fail to log on at workstation ${station}? See {file}.`,
            `In {file}, what Source Network Address is on the failed logon of account ${asked} from ${station}?`,
            `{file}: failed logon, account ${asked}, workstation ${station}, source address?`,
            `${asked} had a failed sign-in from ${station}. What address did it come from, per {file}?`,
            `Find the 4625 event for ${asked} with Workstation Name ${station} in {file} and report its source IP.`,
          ],
        },
        {
          kind: "pattern",
          expected: sid,
          decoys: ["S-1-5-18", "S-1-5-19"],
          phrasings: [
            "One event in {file} shows a domain SID that was not resolved to a name (S-1-5-21-…). What is it?",
            "Which unresolved S-1-5-21 security identifier appears in {file}?",
            "{file}: the raw domain account SID, which one?",
            "Someone was added to Administrators and the log only shows a SID. Which SID is it? See {file}.",
            "Find the full S-1-5-21-… SID in {file} and copy it exactly.",
          ],
        },
      ],
    };
  },
};
