/**
 * The package as a user gets it: `npm pack`, then `npm install <tarball>` into a clean
 * directory (the npm registry reachable, npm's cache allowed), then the installed binary and
 * library from there: `npx spillway --help`, `outputs demo`, `mcp` in front of the test MCP
 * server `spillway/testing` ships (driven by the MCP SDK's client), `serve` (GET /health), and an
 * import of every subpath export. One pack and one install serve every check.
 *
 * better-sqlite3's native binary: its install script fetches a prebuilt binary from GitHub,
 * which this machine cannot reach, and otherwise compiles SQLite (minutes of CPU here). The
 * binary this checkout already built is handed to that script as a local prebuild of the same
 * version (`npm_config_better_sqlite3_local_prebuilds`), the way a user gets it prebuilt; a
 * different version resolved from the registry is compiled as usual.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, ROOT } from "../helpers/built-cli.js";
import { firstText, handleId } from "../helpers/gateway-fixture.js";

const run = promisify(execFile);
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  exports: Record<string, string | { import: string; types: string }>;
  bin: Record<string, string>;
};

/** The environment without what `npm test` exported for its own run (npm_* settings). */
const ENV = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^npm_/i.test(key) && !["SPILLWAY_HOME", "SPILLWAY_MODEL"].includes(key),
  ),
);

let dir: string;
let app: string;
let packed: { filename: string; files: { path: string; mode: number }[] };

/** `npx --no -- spillway …`: the installed binary (never a registry package), its own flags. */
const NPX_SPILLWAY = ["--no", "--", "spillway"];

function npx(args: readonly string[], timeout = 120_000) {
  return run("npx", [...NPX_SPILLWAY, ...args], { cwd: app, env: ENV, timeout }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: e.code ?? -1,
      stdout: e.stdout ?? "",
      stderr: e.stderr ?? "",
    }),
  );
}

/** A local prebuild of better-sqlite3 from this checkout's build (see the file comment). */
async function localPrebuilds(): Promise<Record<string, string>> {
  const pkg = join(ROOT, "node_modules/better-sqlite3");
  if (!existsSync(join(pkg, "build/Release/better_sqlite3.node"))) return {};
  const { version } = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as {
    version: string;
  };
  const prebuilds = join(dir, "prebuilds");
  await mkdir(prebuilds);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run("tar", ["-czf", join(prebuilds, name), "build/Release/better_sqlite3.node"], {
    cwd: pkg,
  });
  return { npm_config_better_sqlite3_local_prebuilds: prebuilds };
}

beforeAll(async () => {
  await ensureBuilt();
  if (!existsSync(join(ROOT, "dist/inspector/index.html"))) {
    // The inspector alone: `npm run build` starts by removing dist, which other files may be
    // running from.
    await run(
      process.execPath,
      [
        join(ROOT, "node_modules/vite/bin/vite.js"),
        "build",
        "--config",
        "web/inspector/vite.config.ts",
      ],
      { cwd: ROOT, env: ENV, timeout: 600_000 },
    );
  }
  dir = await mkdtemp(join(tmpdir(), "spillway-package-"));
  // The dist just built (npm test builds before vitest); `prepare` would build it again.
  const pack = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], {
    cwd: ROOT,
    env: ENV,
    maxBuffer: 64 * 1024 * 1024,
  });
  packed = (JSON.parse(pack.stdout) as (typeof packed)[])[0]!;
  app = join(dir, "app");
  await mkdir(app);
  await writeFile(
    join(app, "package.json"),
    JSON.stringify({ name: "spillway-user", private: true, type: "module" }),
  );
  await run(
    "npm",
    ["install", join(dir, packed.filename), "--no-audit", "--no-fund", "--loglevel=error"],
    { cwd: app, env: { ...ENV, ...(await localPrebuilds()) }, timeout: 900_000 },
  );
}, 1_000_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the packed tarball", () => {
  it("holds what a user needs: every export and the binary, README, LICENSE, CHANGELOG, the docs", () => {
    const files = new Set(packed.files.map((f) => f.path));
    for (const target of Object.values(manifest.exports)) {
      if (typeof target === "string") continue;
      expect(files, target.import).toContain(target.import.replace(/^\.\//, ""));
      expect(files, target.types).toContain(target.types.replace(/^\.\//, ""));
    }
    const bin = packed.files.find((f) => f.path === manifest.bin.spillway);
    expect(bin?.mode ?? 0, "the binary is executable").toBe(0o755);
    for (const file of ["README.md", "LICENSE", "CHANGELOG.md", "package.json"])
      expect(files).toContain(file);
    expect(files).toContain("dist/inspector/index.html");
    expect(files).toContain("docs/local-models.md");
  });

  it("holds no source maps, sources, tests, fixtures, images, or stale build files", () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths.filter((p) => p.endsWith(".map"))).toEqual([]);
    expect(paths.filter((p) => /(^|\/)(src|test|fixtures)\//.test(p))).toEqual([]);
    expect(paths.filter((p) => /\.test(-d)?\.|\.png$/.test(p))).toEqual([]);
    // Every compiled module has its source in this checkout (a deleted file's build is stale).
    const stale = paths
      .filter((p) => /^dist\/(?!inspector\/).*\.js$/.test(p))
      .map((p) => p.replace(/^dist\//, "src/").replace(/\.js$/, ".ts"))
      .filter((source) => !existsSync(join(ROOT, source)));
    expect(stale).toEqual([]);
  });
});

describe("installed from the tarball into a clean directory", () => {
  it("has its metadata, and npx spillway --help and --version answer", async () => {
    const installed = JSON.parse(
      readFileSync(join(app, "node_modules/spillway/package.json"), "utf8"),
    ) as Record<string, unknown>;
    for (const field of ["repository", "homepage", "bugs", "keywords", "license", "author"])
      expect(installed[field], field).toBeTruthy();
    expect(existsSync(join(app, "node_modules/spillway/LICENSE"))).toBe(true);
    const help = await npx(["--help"]);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: spillway \[options\] \[command\]/);
    for (const command of ["run", "outputs", "models", "serve", "mcp"])
      expect(help.stdout).toMatch(new RegExp(`\\n  ${command} `));
    const version = await npx(["--version"]);
    expect(version.stdout.trim()).toBe(manifest.version);
  });

  it("imports every subpath export; spillway/langchain needs its optional peer", async () => {
    const subpaths = Object.keys(manifest.exports)
      .filter((key) => key !== "./package.json" && key !== "./langchain")
      .map((key) => `spillway${key.slice(1)}`);
    const script = `const names = {};
for (const path of ${JSON.stringify(subpaths)}) names[path] = Object.keys(await import(path)).length;
let langchain = "loaded";
try { await import("spillway/langchain"); } catch (error) { langchain = String(error.message); }
console.log(JSON.stringify({ names, langchain }));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
      cwd: app,
      env: ENV,
    });
    const result = JSON.parse(stdout) as { names: Record<string, number>; langchain: string };
    expect(Object.keys(result.names)).toEqual(subpaths);
    for (const [path, count] of Object.entries(result.names))
      expect(count, path).toBeGreaterThan(0);
    expect(result.langchain).toContain("@langchain/core");
  });

  it("npx spillway outputs demo stores a log and reads it back exactly", async () => {
    const home = join(dir, "demo-home");
    const demo = await npx(["--home", home, "outputs", "demo", "--size-mb", "2"]);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain("spillway demo: a 2 MB tool output stored whole");
    const planted = /1 matching line, line ([\d,]+) \(planted at line ([\d,]+)\)/.exec(demo.stdout);
    expect(planted?.[1], demo.stdout).toBe(planted?.[2]);
    expect(demo.stdout).toContain("[6/6] page through the whole log and compare SHA-256");
    expect(demo.stdout).toContain("identical: paging reconstructs the stored output exactly");
    expect(existsSync(join(home, "spillway.db"))).toBe(true);
  });

  it("npx spillway mcp serves the test MCP server losslessly to an MCP SDK client", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'import { testMcpServerCommand } from "spillway/testing"; console.log(JSON.stringify(testMcpServerCommand()));',
      ],
      { cwd: app, env: ENV },
    );
    const server = JSON.parse(stdout) as { command: string; args: string[] };
    expect(server.args[0]).toBe(join(app, "node_modules/spillway/dist/testing/mcp-test-server.js"));
    const transport = new StdioClientTransport({
      command: "npx",
      args: [
        ...NPX_SPILLWAY,
        "--home",
        join(dir, "mcp-home"),
        "mcp",
        "--",
        server.command,
        ...server.args,
      ],
      cwd: app,
      env: ENV as Record<string, string>,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const client = new Client({ name: "package-test", version: "1.0.0" });
    await client.connect(transport).catch((error: unknown) => {
      throw new Error(`spillway mcp did not connect: ${String(error)}; its stderr: ${stderr}`);
    });
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(["generate_output", "get_tool_output"]));
      const big = await client.callTool(
        {
          name: "generate_output",
          arguments: { bytes: 400_000, kind: "log", needle: "NEEDLE-7f3a", needle_at: 0.6 },
        },
        undefined,
        { timeout: 120_000 },
      );
      expect(firstText(big)).toMatch(
        /^\[spillway\] The output of generate_output is stored whole as out_/,
      );
      // The client got a handle, not the 400 KB (the needle is only in the call's arguments).
      expect(firstText(big)).not.toContain("NEEDLE-7f3a");
      expect(JSON.stringify(big).length).toBeLessThan(16_000);
      const found = await client.callTool({
        name: "get_tool_output",
        arguments: { id: handleId(big), mode: "grep", pattern: "NEEDLE-7f3a" },
      });
      expect(found.isError, firstText(found)).toBeFalsy();
      expect(firstText(found)).toContain("NEEDLE-7f3a");
    } finally {
      await client.close();
    }
  }, 180_000);

  it("npx spillway serve answers GET /health over HTTP, and stops on SIGTERM", async () => {
    const child: ChildProcess = spawn(
      "npx",
      [...NPX_SPILLWAY, "--home", join(dir, "serve-home"), "--json", "serve", "--port", "0"],
      { cwd: app, env: ENV, stdio: ["ignore", "pipe", "pipe"], detached: true },
    );
    const group = child.pid!;
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    let url: string;
    try {
      url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout?.on("data", (chunk: Buffer) => {
          out += chunk.toString("utf8");
          const line = out.split("\n").find((l) => l.includes('"listening"'));
          if (line) resolve((JSON.parse(line) as { url: string }).url);
        });
        child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
      });
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ ok: true, version: manifest.version });
    } finally {
      // The process group (npx, and the spillway process it started), as a terminal would:
      // npx dies of the signal without passing it on, so spillway must get it too.
      if (child.exitCode === null) process.kill(-group, "SIGTERM");
    }
    // Every process of the group ends, spillway after closing its server.
    const deadline = Date.now() + 20_000;
    const alive = () => {
      try {
        process.kill(-group, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(alive(), "a process of spillway serve's group is still running").toBe(false);
    expect(stderr).toContain("spillway serve: stopping");
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  }, 120_000);
});
