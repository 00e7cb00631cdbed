/**
 * Design feedback in the web app, in Chromium, after planning partC.step through the real API,
 * worker and OCCT with a shop's everyday tools (partC's sharp inside corners give items): the quote page
 * lists every item the API gives, in its order, in words; the project's 3D view lists them too,
 * and choosing one paints its faces in the highlight (counted in a screenshot) and choosing it
 * again gives the part back its grey. No console errors.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import type { DesignFeedbackItem } from "../../kernel/dfm/types.ts";
import { launchBrowser, openPage, refusedWith, signInThroughPage, type WatchedPage } from "../support/browser.ts";
import { everydayTools, PlanningService } from "../support/planning-service.ts";
import { givePassword, TEST_PASSWORD } from "../support/sessions.ts";

let service: PlanningService;
let browser: Browser;
let tab: WatchedPage;
let projectId = "";
let items: (DesignFeedbackItem & { message: string })[] = [];

before(async () => {
  service = await PlanningService.start();
  browser = await launchBrowser();
  const { user } = service;
  await givePassword(service.db.owner, user.id);
  projectId = await service.stepProject(everydayTools());
  const task = await service.plan(projectId);
  assert.equal(task.status, "success", JSON.stringify(task));
  const quote = await service.api.request<{ design_feedback: (DesignFeedbackItem & { message: string })[] }>(
    "GET",
    `/projects/${projectId}/quote?language=en`,
    { key: user.key },
  );
  assert.equal(quote.status, 200, quote.text);
  items = quote.body.design_feedback;
  tab = await openPage(browser);
  await signInThroughPage(tab.page, service.api.origin, user.email, TEST_PASSWORD);
  tab.assertClean([refusedWith(401)]);
});

after(async () => {
  await tab?.close();
  await browser?.close();
  await service?.stop();
});

/** the share of the canvas in the highlight's yellow (HIGHLIGHT, lit) */
async function highlightShare(page: Page): Promise<number> {
  const png = await page.locator("canvas.viewer-canvas").screenshot();
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let yellow = 0;
  for (let i = 0; i < data.length; i += 3) {
    const r = data[i] as number;
    const g = data[i + 1] as number;
    const b = data[i + 2] as number;
    if (r > 120 && g > 90 && b < 0.5 * g && r - g < 80) yellow += 1;
  }
  return yellow / (info.width * info.height);
}

describe("design feedback in the web app", () => {
  it("lists the quote's design feedback on the quote page, in the API's order and in words", async () => {
    assert.ok(items.length > 0, "partC has design feedback");
    const { page } = tab;
    await page.goto(`${service.api.origin}/projects/${projectId}/quote`);
    const list = page.getByTestId("design-feedback").locator("li");
    await list.first().waitFor();
    assert.equal(await list.count(), items.length);
    for (let k = 0; k < items.length; k++) {
      assert.equal(await list.nth(k).getAttribute("data-kind"), items[k]!.kind);
      const words = (await list.nth(k).innerText()).trim();
      assert.ok(words.includes(items[k]!.faces.join(", ")), words);
      assert.ok(words.startsWith(items[k]!.message), `the API's sentence: ${words}`);
      assert.doesNotMatch(words, /undefined|NaN|\{/);
    }
    tab.assertClean();
  });

  it("paints a chosen item's faces on the part in the 3D view, and gives the grey back when chosen again", async () => {
    const { page } = tab;
    await page.goto(`${service.api.origin}/projects/${projectId}`);
    await page.locator('section.viewer[data-ready="true"]').waitFor({ timeout: 60_000 });
    const buttons = page.locator('[data-overlay="design-feedback"] button');
    await buttons.first().waitFor();
    assert.equal(await buttons.count(), items.length);
    // partC's 24 mm passage through the top (feature 8): in sight of the first view, unlike its
    // narrow passages inside
    const index = items.findIndex((i) => i.feature === 8);
    assert.ok(index >= 0, JSON.stringify(items.map((i) => i.feature)));
    const button = buttons.nth(index);
    const before = await highlightShare(page);
    await button.click();
    await page.locator('canvas.viewer-canvas[data-part-colours="design-feedback"]').waitFor();
    assert.equal(await button.getAttribute("aria-pressed"), "true");
    await page.waitForTimeout(500);
    const chosen = await highlightShare(page);
    assert.ok(
      chosen > before + 0.001,
      `highlight ${(before * 100).toFixed(3)} % before, ${(chosen * 100).toFixed(3)} % after`,
    );
    await button.click();
    await page.locator('canvas.viewer-canvas[data-part-colours="plain"]').waitFor();
    assert.equal(await button.getAttribute("aria-pressed"), "false");
    tab.assertClean();
  });
});
