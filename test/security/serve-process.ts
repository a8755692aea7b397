/**
 * A real `spillway serve` process for the security probes: the built CLI
 * (`node dist/cli/main.js --home H --json serve --port 0 …`), its URL once it listens, what it
 * logged, and helpers to send it requests as a tenant. Killed after the test file.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Responder,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../../src/testing/index.js";
import { SCRIPTED_MODEL, testServerSpec } from "../helpers/agent-fixture.js";
import { BIN, CLI_ENV, ensureBuilt } from "../helpers/built-cli.js";

export interface ServeProcess {
  readonly url: string;
  readonly port: number;
  readonly home: string;
  readonly child: ChildProcess;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** fetch against the server. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Stores `body` as an output (as curl does, with an explicit binary content type). */
  put(
    query: string,
    body: string | Uint8Array,
    headers?: Record<string, string>,
  ): Promise<Response>;
  stop(): Promise<void>;
}

/** Two tenants' tokens for servers started with `tenants: true`. */
export const ALICE = { authorization: "Bearer alice-token-0123456789" };
export const BOB = { authorization: "Bearer bob-token-0123456789abc" };
export const TOKENS = { alice: "alice-token-0123456789", bob: "bob-token-0123456789abc" };

const running = new Set<ChildProcess>();
const dirs: string[] = [];

/** A temp directory that lives until {@link stopAll} (servers outlive single tests). */
export async function fileDir(prefix = "spillway-sec-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** Kills every server this file started and removes their directories (call from afterAll). */
export async function stopAll(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once("exit", () => done());
          child.kill("SIGKILL");
        }),
    ),
  );
  running.clear();
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/**
 * Starts `spillway serve` on a free loopback port. `tenants`: with a tokens file naming alice
 * and bob (written to `tokensFile`, returned for reloads).
 */
export async function startServe(
  options: {
    readonly tenants?: boolean;
    readonly args?: readonly string[];
    readonly home?: string;
    /** Where it runs (config lookup, agent paths); default the current directory. */
    readonly cwd?: string;
  } = {},
): Promise<ServeProcess & { readonly tokensFile?: string }> {
  await ensureBuilt();
  const home = options.home ?? join(await fileDir(), "home");
  const args = [BIN, "--home", home, "--json", "serve", "--port", "0", ...(options.args ?? [])];
  let tokensFile: string | undefined;
  if (options.tenants) {
    tokensFile = join(await fileDir("spillway-tokens-"), "tokens.json");
    await writeFile(tokensFile, JSON.stringify(TOKENS), { mode: 0o600 });
    args.push("--tokens-file", tokensFile);
  }
  const child = spawn(process.execPath, args, {
    env: CLI_ENV,
    stdio: ["ignore", "pipe", "pipe"],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  running.add(child);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split("\n").find((l) => l.includes('"listening"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}${stdout}`)));
  });
  const call = (path: string, init?: RequestInit) => fetch(`${url}${path}`, init);
  return {
    url,
    port: Number(new URL(url).port),
    home,
    child,
    ...(tokensFile ? { tokensFile } : {}),
    stderr: () => stderr,
    fetch: call,
    put: (query, body, headers = {}) =>
      call(`/v1/outputs?${query}`, {
        method: "POST",
        headers: { "content-type": "application/octet-stream", ...headers },
        body,
      }),
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
}

/** The JSON body of a response. */
export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/**
 * A directory for `spillway serve --agents-dir` with a config file pointing the `scripted`
 * provider at a scripted model server answering `respond`, and one agent file `<name>.md`
 * (extra frontmatter lines appended). Close the model server with `model.close()`.
 */
export async function scriptedAgentDir(
  respond: Responder,
  name: string,
  frontmatter: readonly string[] = [],
): Promise<{ dir: string; model: ScriptedModelServer }> {
  const model = await startScriptedModelServer({ respond });
  const dir = await fileDir("spillway-agents-");
  await writeFile(
    join(dir, "spillway.config.json"),
    JSON.stringify({
      providers: { "openai-compatible": { scripted: { baseURL: model.baseURL } } },
    }),
  );
  await writeFile(
    join(dir, `${name}.md`),
    [
      "---",
      `models: [${JSON.stringify(SCRIPTED_MODEL)}]`,
      "async: false",
      ...frontmatter,
      "---",
      "You are a test agent.",
      "",
    ].join("\n"),
  );
  return { dir, model };
}

/** The test MCP server (src/testing) as frontmatter lines of an agent file. */
export function testServerFrontmatter(): string[] {
  const spec = testServerSpec();
  return [
    "mcpServers:",
    "  test:",
    `    command: ${JSON.stringify(spec.command)}`,
    `    args: ${JSON.stringify(spec.args)}`,
  ];
}

/** Polls a session until it is no longer running. */
export async function settled(
  serve: ServeProcess,
  id: string,
  headers: Record<string, string> = {},
) {
  for (let i = 0; i < 300; i++) {
    const res = await serve.fetch(`/v1/sessions/${id}`, { headers });
    const state = (await res.json()) as { session: { status: string } };
    if (state.session.status !== "running") return state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`session ${id} still running after 30 s`);
}
