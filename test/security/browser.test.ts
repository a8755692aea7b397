/**
 * Probes with a real browser (playwright-core driving /usr/bin/chromium) against a real
 * `spillway serve` process: stored content opened from the inspector's raw link must not run
 * script, and a page of another site must not write to the token-less loopback server.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Responder,
  startScriptedModelServer,
  toolCall,
  toolMessages,
} from "../../src/testing/index.js";
import { SCRIPTED_MODEL } from "../helpers/agent-fixture.js";
import { fileDir, json, startServe, stopAll } from "./serve-process.js";

const CHROMIUM = process.env.SPILLWAY_CHROMIUM ?? "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"];
const require = createRequire(import.meta.url);

let browser: Browser;
beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: install it or set SPILLWAY_CHROMIUM.`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
});
afterAll(async () => {
  await browser?.close();
  await stopAll();
});

describe("defect: stored content ran script on the inspector's origin", () => {
  it("an SVG or HTML output opened from the inspector's raw link downloads, and runs nothing", async () => {
    // Blind policy: calls the two hostile tools, then reports.
    const respond: Responder = (request) => {
      const done = toolMessages(request).length;
      if (done === 0) return toolCall("hostile__picture", {});
      if (done === 1) return toolCall("hostile__page", {});
      return toolCall("agent__final_report", { report: "done" });
    };
    const model = await startScriptedModelServer({ respond });
    const dir = await fileDir();
    await writeFile(
      join(dir, "spillway.config.json"),
      JSON.stringify({
        providers: { "openai-compatible": { scripted: { baseURL: model.baseURL } } },
      }),
    );
    const tsx = pathToFileURL(require.resolve("tsx")).href;
    const fixture = join(import.meta.dirname, "..", "fixtures", "hostile-content-server.ts");
    await writeFile(
      join(dir, "hostile.md"),
      `---\nmodels: [${JSON.stringify(SCRIPTED_MODEL)}]\nasync: false\nmcpServers:\n  hostile:\n    command: ${JSON.stringify(process.execPath)}\n    args: ["--import", ${JSON.stringify(tsx)}, ${JSON.stringify(fixture)}]\n---\nYou are a test agent.\n`,
    );
    const serve = await startServe({ cwd: dir, args: ["--agents-dir", dir] });
    try {
      const started = await serve.fetch("/v1/sessions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ agent: { path: "hostile.md" }, prompt: "go" }),
      });
      expect(started.status, await started.clone().text()).toBe(201);
      const { session } = await json<{ session: { id: string } }>(started);
      for (let i = 0; i < 200; i++) {
        const state = await json<{ session: { status: string } }>(
          await serve.fetch(`/v1/sessions/${session.id}`),
        );
        if (state.session.status !== "running") break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }

      const context = await browser.newContext({ acceptDownloads: true });
      // Every page of the context (popups too, from their first moment): console and downloads.
      const seen: string[] = [];
      const downloads: string[] = [];
      const watch = (p: Page) => {
        p.on("console", (message) => seen.push(message.text()));
        p.on("download", (download) => downloads.push(download.suggestedFilename()));
      };
      context.on("page", watch);
      const page = await context.newPage();
      await page.goto(`${serve.url}/#/sessions/${session.id}`);
      const handles = page.locator(".tool-call button.handle");
      await handles.nth(1).waitFor({ timeout: 30_000 });
      for (let i = 0; i < 2; i++) {
        await handles.nth(i).click();
        const viewer = page.getByRole("dialog");
        await viewer.waitFor();
        await viewer.getByRole("link", { name: "raw" }).click();
        for (let wait = 0; wait < 100 && downloads.length <= i; wait++)
          await new Promise((resolve) => setTimeout(resolve, 100));
        await page.keyboard.press("Escape");
        await viewer.waitFor({ state: "detached" });
      }
      expect(downloads).toHaveLength(2);
      // Straight to /raw, as a link elsewhere could send the user: a download, nothing rendered.
      const outputs = await json<{ outputs: { id: string; kind: string }[] }>(
        await serve.fetch(`/v1/sessions/${session.id}/outputs`),
      );
      const binaries = outputs.outputs.filter((o) => o.kind === "binary");
      expect(binaries).toHaveLength(2);
      for (const output of binaries) {
        const direct = await context.newPage();
        await direct.goto(`${serve.url}/v1/outputs/${output.id}/raw`).catch(() => null);
        for (let wait = 0; wait < 100 && !downloads.includes(output.id); wait++)
          await new Promise((resolve) => setTimeout(resolve, 100));
        expect(downloads).toContain(output.id);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(seen.filter((line) => line.includes("PWNED"))).toEqual([]);
      const pwned = await json<{ outputs: unknown[] }>(
        await serve.fetch("/v1/sessions/pwned/outputs"),
      );
      expect(pwned.outputs).toEqual([]);
      await context.close();
    } finally {
      await model.close();
    }
  });
});

describe("defect: cross-site writes to the token-less server", () => {
  let attacker: Server;
  afterAll(() => new Promise<void>((done) => (attacker ? attacker.close(() => done()) : done())));

  it("a page of another site can neither store an output nor start anything", async () => {
    const serve = await startServe();
    const target = `${serve.url}/v1/outputs?session=csrf&tool=page`;
    // The page tries what the issue found, and a form post; each would have stored an output.
    // It says when every attempt was answered, so nothing is checked before the server is done.
    const html = `<!doctype html><body>
      <form id="f" method="POST" action="${target}&via=form" enctype="text/plain" target="sink">
        <input name="a" value="b"></form>
      <iframe name="sink" onload="if (window.posted) console.log('form answered')"></iframe>
      <script>
        Promise.allSettled([
          fetch(${JSON.stringify(target)}, { method: "POST", mode: "no-cors", body: "stored by a web page" }),
          fetch(${JSON.stringify(target)}, { method: "POST", mode: "no-cors", body: new Blob(["blob"]) }),
        ]).then(() => {
          console.log("fetches answered");
          window.posted = true;
          document.getElementById("f").submit();
        });
      </script></body>`;
    attacker = createServer((_, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(html);
    });
    await new Promise<void>((done) => attacker.listen(0, "127.0.0.1", () => done()));
    const origin = `http://localhost:${(attacker.address() as AddressInfo).port}`;
    // A first output, so the server has loaded everything a put needs before the page tries.
    expect((await serve.put("session=warm&tool=t", "warm")).status).toBe(201);
    const page = await browser.newPage();
    const said: string[] = [];
    page.on("console", (message) => said.push(message.text()));
    await page.goto(`${origin}/`);
    for (let i = 0; i < 300 && !said.includes("form answered"); i++) await page.waitForTimeout(100);
    const ours = said.filter((line) => line.endsWith(" answered"));
    expect(ours, said.join(" | ")).toEqual(["fetches answered", "form answered"]);
    await page.close();
    const stored = await json<{ outputs: unknown[] }>(
      await serve.fetch("/v1/sessions/csrf/outputs"),
    );
    expect(stored.outputs).toEqual([]);
    // The same request from a client that says who it is still works.
    const curl = await serve.put("session=csrf&tool=curl", "by curl");
    expect(curl.status).toBe(201);
  });
});
