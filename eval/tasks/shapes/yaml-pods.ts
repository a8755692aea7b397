/**
 * A kubectl-style YAML list (`kubectl get pods -o yaml`): pods with metadata, containers and
 * status, nested lists and maps. Questions: the image of a named pod (ten lines below its name),
 * the first pod killed for memory, the IP of the pod one app runs on one node, the one image
 * pinned by digest.
 */
import type { Rng } from "../../../src/core/rng.js";
import type { GeneratedFile, Shape } from "../types.js";
import { Clock, chars, hex, ipv4, shuffled, spots } from "../vocab.js";

const APPS = [
  "checkout",
  "payments",
  "inventory",
  "search",
  "auth",
  "shipping",
  "catalog",
  "billing",
];
const ALNUM = "bcdfghjklmnpqrstvwxz2456789";

interface Pod {
  name: string;
  app: string;
  hash: string;
  node: string;
  image: string;
  podIP: string;
  hostIP: string;
  created: string;
  restarts: number;
  uid: string;
  lastReason?: string;
}

function render(p: Pod): string {
  const last = p.lastReason
    ? [
        "      lastState:",
        "        terminated:",
        `          exitCode: ${p.lastReason === "OOMKilled" ? 137 : 1}`,
        `          reason: ${p.lastReason}`,
      ]
    : ["      lastState: {}"];
  return [
    "- apiVersion: v1",
    "  kind: Pod",
    "  metadata:",
    `    creationTimestamp: "${p.created}"`,
    `    generateName: ${p.app}-${p.hash}-`,
    "    labels:",
    `      app: ${p.app}`,
    `      pod-template-hash: ${p.hash}`,
    `    name: ${p.name}`,
    "    namespace: shop",
    "    ownerReferences:",
    "    - apiVersion: apps/v1",
    "      blockOwnerDeletion: true",
    "      controller: true",
    "      kind: ReplicaSet",
    `      name: ${p.app}-${p.hash}`,
    `    uid: ${p.uid}`,
    "  spec:",
    "    containers:",
    "    - env:",
    "      - name: LOG_LEVEL",
    "        value: info",
    "      - name: PORT",
    '        value: "8080"',
    `      image: ${p.image}`,
    "      imagePullPolicy: IfNotPresent",
    `      name: ${p.app}`,
    "      ports:",
    "      - containerPort: 8080",
    "        protocol: TCP",
    "      resources:",
    "        limits:",
    `          memory: ${[256, 512, 1024][p.name.length % 3]}Mi`,
    `    nodeName: ${p.node}`,
    "  status:",
    "    containerStatuses:",
    `    - image: ${p.image}`,
    ...last,
    `      name: ${p.app}`,
    "      ready: true",
    `      restartCount: ${p.restarts}`,
    `    hostIP: ${p.hostIP}`,
    "    phase: Running",
    `    podIP: ${p.podIP}`,
  ].join("\n");
}

function podOf(rng: Rng, clock: Clock, nodes: string[], versions: Map<string, string>): Pod {
  const app = rng.pick(APPS);
  const hash = chars(rng, ALNUM, 10);
  const node = rng.pick(nodes);
  return {
    name: `${app}-${hash}-${chars(rng, ALNUM, 5)}`,
    app,
    hash,
    node,
    image: `registry.example.com/shop/${app}:${versions.get(app)}`,
    podIP: `10.244.${rng.int(64)}.${1 + rng.int(254)}`,
    hostIP: ipv4(rng),
    created: clock
      .next()
      .toISOString()
      .replace(/\.\d{3}Z$/, "Z"),
    restarts: rng.chance(0.8) ? 0 : rng.range(1, 3),
    uid: `${hex(rng, 8)}-${hex(rng, 4)}-${hex(rng, 4)}-${hex(rng, 4)}-${hex(rng, 12)}`,
  };
}

export const yamlList: Shape = {
  name: "yaml-list",
  generate(rng, size): GeneratedFile {
    const clock = new Clock(rng, [5_000, 600_000]);
    const nodes = Array.from({ length: 6 }, () => `node-${chars(rng, ALNUM, 5)}`);
    const versions = new Map(
      APPS.map((a) => [a, `${rng.range(1, 9)}.${rng.range(0, 20)}.${rng.range(0, 9)}`]),
    );
    const pods: Pod[] = [];
    let total = 40;
    while (total < size || pods.length < 20) {
      const pod = podOf(rng, clock, nodes, versions);
      pods.push(pod);
      total += render(pod).length + 1;
    }
    const n = pods.length;
    const [lookupAt, twinAt, ipAt, digestAt, nearAt, ...rest] = shuffled(rng, spots(rng, n, 9));
    const [errorAt, ...oomAt] = rest.sort((a, b) => a - b);

    // lookup: one pod runs a canary tag; its lookalike (same app and hash, one letter apart) runs the release.
    const target = pods[lookupAt!]!;
    target.image = `registry.example.com/shop/${target.app}:${versions.get(target.app)}-canary.${rng.range(1, 9)}`;
    const twin = pods[twinAt!]!;
    // The twin runs the next patch release: not a prefix of the canary tag, so never part of it.
    const [major, minor, patch] = versions.get(target.app)!.split(".").map(Number);
    Object.assign(twin, {
      app: target.app,
      hash: target.hash,
      image: `registry.example.com/shop/${target.app}:${major}.${minor}.${patch! + 1}`,
    });
    const suffix = target.name.slice(-5);
    let twinSuffix = suffix;
    while (twinSuffix === suffix) twinSuffix = `${suffix.slice(0, 4)}${chars(rng, ALNUM, 1)}`;
    twin.name = `${target.app}-${target.hash}-${twinSuffix}`;

    // ordinal: the first pod whose container was OOMKilled; one before it ended with an error.
    pods[errorAt!]!.lastReason = "Error";
    const oom = oomAt.map((i) => pods[i]!);
    for (const p of oom) Object.assign(p, { lastReason: "OOMKilled", restarts: rng.range(1, 6) });

    // cross-field: the IP of the one pod of an app on a node.
    const byNode = pods[ipAt!]!;
    const others = pods.filter(
      (p) => p !== byNode && (p.node === byNode.node || p.app === byNode.app),
    );
    for (const p of others)
      if (p.node === byNode.node && p.app === byNode.app)
        p.node = nodes.find((x) => x !== byNode.node)!;

    // pattern: one image pinned by digest; another's tag only looks like a hash.
    const digest = `sha256:${hex(rng, 64)}`;
    const pinned = pods[digestAt!]!;
    pinned.image = `registry.example.com/shop/${pinned.app}@${digest}`;
    const nearMiss = hex(rng, 12);
    pods[nearAt!]!.image = `registry.example.com/shop/${pods[nearAt!]!.app}:${nearMiss}`;

    const text = [
      "apiVersion: v1",
      "items:",
      ...pods.map(render),
      "kind: List",
      "metadata:",
      '  resourceVersion: ""',
      "",
    ].join("\n");
    return {
      name: "pods.yaml",
      text,
      questions: [
        {
          kind: "lookup",
          expected: target.image,
          decoys: [twin.image, pods[lookupAt! - 1]?.image ?? "", pods[lookupAt! + 1]?.image ?? ""],
          phrasings: [
            `Which container image does pod ${target.name} run? The pod list is {file}.`,
            `In {file}, what image is pod ${target.name} using?`,
            `{file}: give me the full image reference of ${target.name}.`,
            `What's the image (with its tag) of the pod named ${target.name} in {file}?`,
            `Find pod ${target.name} in {file} and report spec.containers[0].image.`,
          ],
        },
        {
          kind: "ordinal",
          expected: oom[0]!.name,
          decoys: [pods[errorAt!]!.name, ...oom.slice(1).map((p) => p.name)],
          phrasings: [
            "Which pod in {file} is the first one whose container was OOMKilled?",
            "Going down {file}, what is the name of the first pod that was killed for running out of memory?",
            "{file}: report the name of the first pod with lastState terminated reason OOMKilled.",
            "Find the earliest pod in the list {file} that shows an OOMKilled container and give its name.",
            "What's the first pod in {file} that got OOM-killed?",
          ],
        },
        {
          kind: "cross-field",
          expected: byNode.podIP,
          decoys: others.slice(0, 6).map((p) => p.podIP),
          phrasings: [
            `What is the pod IP of the ${byNode.app} pod running on node ${byNode.node}? See {file}.`,
            `In {file}, which podIP belongs to the pod with app=${byNode.app} on nodeName ${byNode.node}?`,
            `{file}: the ${byNode.app} app has one pod on ${byNode.node}. What is its IP address?`,
            `Give me the podIP for app ${byNode.app} scheduled on ${byNode.node} (file {file}).`,
            `On node ${byNode.node}, what IP does the ${byNode.app} pod have, according to {file}?`,
          ],
        },
        {
          kind: "pattern",
          expected: digest,
          decoys: [nearMiss],
          phrasings: [
            "One image in {file} is pinned by a sha256 digest instead of a tag. What is the digest?",
            "Which pod in {file} uses an image referenced by digest? Report the digest exactly.",
            "{file}: find the image written as name@sha256:… and give me its sha256 digest.",
            "Report the only image digest (sha256 followed by 64 hex characters) in {file}.",
            "What sha256 digest appears in an image reference in {file}?",
          ],
        },
      ],
    };
  },
};
