/**
 * The web inspector in a real browser (playwright-core driving Debian's Chromium) on a live
 * scripted session, checked as a user would: the transcript updates live, the handle opens the
 * output viewer, grep jumps to the needle, the context-window indicator shows its labels, and
 * the keyboard works. SPILLWAY_SCREENSHOTS=DIR saves the screenshots the README shows.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Responder, toolCall, toolMessages } from "../../src/testing/index.js";
import { testServerSpec } from "../helpers/agent-fixture.js";
import { serverFixture } from "../helpers/server-fixture.js";
import { tempDir } from "../helpers/temp-store.js";

const CHROMIUM = process.env.SPILLWAY_CHROMIUM ?? "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const NEEDLE = "NEEDLE-UI-4242";

let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install it (apt-get install chromium; .ci/run does) or set SPILLWAY_CHROMIUM.`,
    );
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
});

afterAll(async () => {
  await browser?.close();
});

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SPILLWAY_SCREENSHOTS ?? (await tempDir());
  await page.screenshot({ path: join(dir, name) });
}

describe("web inspector", () => {
  it("shows a live session, opens the handle in the viewer, greps to the needle, and labels the context window", async () => {
    const first = gate();
    const last = gate();
    // Blind policy: reads one generated log, then reports. The gates only pace it.
    const respond: Responder = async (request) => {
      const results = toolMessages(request);
      if (results.length === 0) {
        await first.opened;
        return toolCall("test__generate_output", {
          bytes: 400_000,
          kind: "log",
          needle: NEEDLE,
          needle_at: 0.73,
        });
      }
      await last.opened;
      return toolCall("agent__final_report", {
        report: "The log is stored whole; the needle line is in it.",
      });
    };
    const f = await serverFixture(respond);
    await f.agent("inspect-me", {
      mcpServers: { test: testServerSpec() },
      async: false,
      contextWindow: 8000,
    });
    const started = await f.post("/v1/sessions", {
      agent: { path: "inspect-me.md" },
      prompt: "Find the needle in the service log.",
    });
    const { session } = (await started.json()) as { session: { id: string } };

    const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    await page.goto(`${f.http.url}/#/sessions/${session.id}`);
    await page.getByRole("heading", { name: /inspect-me/ }).waitFor();
    await expect(
      page.getByText("Find the needle in the service log.").first().isVisible(),
    ).resolves.toBe(true);
    expect(await page.locator(".tool-call").count()).toBe(0);

    // The model's first reply arrives: the tool call and its result appear without a reload.
    first.open();
    const handle = page.locator(".tool-call button.handle").first();
    await handle.waitFor({ timeout: 30_000 });
    const outputId = (await handle.textContent())!.trim();
    expect(outputId).toMatch(/^out_/);
    await expect(page.locator(".tool-call .badge").first().textContent()).resolves.toBe("handle");
    await expect(page.locator(".tool-call pre.shown").first().textContent()).resolves.toContain(
      `stored whole as ${outputId}`,
    );
    await expect(page.locator(".session-header .status").textContent()).resolves.toBe(
      "running (live)",
    );

    // The context-window indicator, with its labels spelled out and a tooltip.
    const indicator = page.locator(".context-indicator");
    await indicator.getByText("warns at 75%, compacts at 90%, hard limit 95%").waitFor();
    await expect(indicator.textContent()).resolves.toMatch(/Context window: [\d.]+% used/);
    await indicator.getByRole("button", { name: "What these thresholds mean" }).focus();
    const tooltip = page.getByRole("tooltip");
    await expect(tooltip.isVisible()).resolves.toBe(true);
    await expect(tooltip.textContent()).resolves.toContain("canonical history is never changed");
    // Usage and cost per model, live from the model.call events.
    await page.locator(".panel h3", { hasText: "(so far, live)" }).waitFor();
    await page
      .locator(".panel table td code", { hasText: "openai-compatible/scripted/scripted-policy" })
      .waitFor();
    await shot(page, "inspector-session.png");

    // One click opens the stored output in the viewer, first page with line numbers.
    await handle.click();
    const viewer = page.getByRole("dialog");
    await viewer.waitFor();
    await viewer.getByText(/lines 1–200 of/).waitFor();
    await expect(viewer.locator("#L1 .ln").textContent()).resolves.toBe("1");
    expect(await viewer.locator(".line").count()).toBe(200);

    // Grep jumps to the needle's line, far past the first page.
    const expected = (await (
      await f.get(`/v1/outputs/${outputId}/content?mode=grep&pattern=${NEEDLE}`)
    ).json()) as {
      matches: { line: number }[];
    };
    const needleLine = expected.matches[0]!.line;
    expect(needleLine).toBeGreaterThan(200);
    await page.keyboard.press("/");
    await page.keyboard.type(NEEDLE);
    await page.keyboard.press("Enter");
    const hit = viewer.locator(".line.hit");
    await hit.waitFor();
    await expect(hit.textContent()).resolves.toContain(NEEDLE);
    await expect(hit.locator(".ln").textContent()).resolves.toBe(String(needleLine));
    await expect(hit.isVisible()).resolves.toBe(true);
    expect(
      await hit.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const region = el.closest(".code")!.getBoundingClientRect();
        return box.top >= region.top && box.bottom <= region.bottom;
      }),
    ).toBe(true);
    await expect(viewer.locator(".match-count").textContent()).resolves.toContain(
      `line ${needleLine}`,
    );
    await shot(page, "inspector-viewer.png");

    // Escape closes the viewer; the final report arrives live.
    await page.keyboard.press("Escape");
    await viewer.waitFor({ state: "detached" });
    last.open();
    await page
      .locator(".final-report", { hasText: "The log is stored whole; the needle line is in it." })
      .waitFor({ timeout: 30_000 });
    await page.locator(".session-header .status", { hasText: "completed" }).waitFor();
    // Usage and cost per model once the run ended.
    await page
      .locator(".panel table td code", { hasText: "openai-compatible/scripted/scripted-policy" })
      .waitFor();
    // The session list is keyboard-usable.
    await page.locator(`#session-${session.id}`).focus();
    await expect(page.locator(`#session-${session.id}`).getAttribute("aria-current")).resolves.toBe(
      "true",
    );
    await page.close();
  });
});
