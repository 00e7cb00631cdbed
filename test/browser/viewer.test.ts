/**
 * The project page's 3D view in Chromium (WebGL on SwiftShader, test/support/browser.ts), after
 * planning partC.step through the real API, worker and OCCT: the part covers a sensible share
 * of the canvas (its pixels counted in a screenshot), choosing an operation in the tree changes
 * the picture, the slider moves the tool and the G-code line, the tree works from the keyboard,
 * the WebGL context is not lost, no console errors, and a phone's width does not scroll
 * sideways; the simulated stock shows blue after the first roughing and green after the setup,
 * with the material left; the features take the stock's place, colour the part and name the
 * feature under the pointer; a job imported from a .famc file (no planning task) opens too.
 * partC is planned with a shop's everyday tools (a 1 mm end mill alone took minutes). With
 * SWARF_WEB_SCREENSHOTS=1 the view is saved to docs/web-app/viewer-<width>.png (and
 * viewer-stock-1280.png).
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { repoRoot } from "../../config/env.ts";
import {
  launchBrowser,
  openPage,
  PHONE,
  refusedWith,
  signInThroughPage,
  type WatchedPage,
} from "../support/browser.ts";
import { everydayTools, PlanningService } from "../support/planning-service.ts";
import { givePassword, TEST_PASSWORD } from "../support/sessions.ts";

const SCREENSHOTS = process.env.SWARF_WEB_SCREENSHOTS === "1" ? path.join(repoRoot, "docs", "web-app") : undefined;

let service: PlanningService;
let browser: Browser;
let tab: WatchedPage;
let projectId = "";

before(async () => {
  service = await PlanningService.start();
  browser = await launchBrowser();
  const { user } = service;
  await givePassword(service.db.owner, user.id);
  projectId = await service.stepProject(everydayTools());
  const task = await service.plan(projectId);
  assert.equal(task.status, "success", JSON.stringify(task));
  tab = await openPage(browser);
  await signInThroughPage(tab.page, service.api.origin, user.email, TEST_PASSWORD);
  tab.assertClean([refusedWith(401)]);
});

after(async () => {
  await tab?.close();
  await browser?.close();
  await service?.stop();
});

/** what the page's functions use of the browser (the server's TypeScript has no DOM types) */
interface InPage {
  document: {
    querySelector(selector: string): {
      getAttribute(name: string): string | null;
      textContent: string | null;
      getContext(type: string): { isContextLost(): boolean } | null;
    } | null;
    documentElement: { scrollWidth: number; clientWidth: number };
  };
  requestAnimationFrame(callback: () => void): number;
}

const canvasOf = (page: Page) => page.locator("canvas.viewer-canvas");

async function framesDrawn(page: Page): Promise<number> {
  return Number((await canvasOf(page).getAttribute("data-frames")) ?? "0");
}

/** waits until the view has drawn a frame after `since` frames, and the next animation frame has shown it */
async function drawnAfter(page: Page, since: number): Promise<void> {
  await page.waitForFunction(
    (n) =>
      Number(
        (globalThis as unknown as InPage).document.querySelector("canvas.viewer-canvas")?.getAttribute("data-frames") ??
          0,
      ) > n,
    since,
  );
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        const browser = globalThis as unknown as InPage;
        browser.requestAnimationFrame(() => browser.requestAnimationFrame(done));
      }),
  );
}

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

async function canvasPixels(page: Page): Promise<Pixels> {
  const png = await canvasOf(page).screenshot();
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The share of pixels that look like the part: grey (the part's material is a neutral grey; the
 * toolpaths, workholding and rapids are saturated colours, the stock's edges dark) and neither
 * the background nor black.
 */
function partShare({ data, width, height }: Pixels): number {
  let part = 0;
  for (let i = 0; i < data.length; i += 3) {
    const r = data[i] as number;
    const g = data[i + 1] as number;
    const b = data[i + 2] as number;
    const spread = Math.max(r, g, b) - Math.min(r, g, b);
    const light = (r + g + b) / 3;
    const background = Math.abs(r - 0xf7) + Math.abs(g - 0xf8) + Math.abs(b - 0xfa) < 12;
    if (!background && spread < 24 && light > 70 && light < 240) part += 1;
  }
  return part / (width * height);
}

type StockColour = "blue" | "green";

/** the stock's blue (material left) or green (within tolerance), lit or in shade */
function isStockColour(r: number, g: number, b: number, colour: StockColour): boolean {
  return colour === "blue" ? b > r + 60 && b > g + 25 : g > r + 50 && g > b + 40;
}

/** the share of pixels in `colour` in `after` that were not in `before` */
function newlyShare(before: Pixels, after: Pixels, colour: StockColour): number {
  assert.equal(before.data.length, after.data.length, "the same canvas size");
  let count = 0;
  const at = (pixels: Pixels, i: number) =>
    isStockColour(pixels.data[i] as number, pixels.data[i + 1] as number, pixels.data[i + 2] as number, colour);
  for (let i = 0; i < after.data.length; i += 3) if (at(after, i) && !at(before, i)) count += 1;
  return count / (after.width * after.height);
}

function changedShare(a: Pixels, b: Pixels): number {
  assert.equal(a.data.length, b.data.length, "the same canvas size");
  let changed = 0;
  for (let i = 0; i < a.data.length; i += 3) {
    const d =
      Math.abs((a.data[i] as number) - (b.data[i] as number)) +
      Math.abs((a.data[i + 1] as number) - (b.data[i + 1] as number)) +
      Math.abs((a.data[i + 2] as number) - (b.data[i + 2] as number));
    if (d > 30) changed += 1;
  }
  return changed / (a.width * a.height);
}

/**
 * The pixels the features coloured: changed between the pictures and saturated in the second
 * (the part's grey and the background are not; what the hidden toolpaths uncover is grey), and
 * the first such pixel whose neighbours 3 px around are too (inside a face, not on its edge).
 */
function featurePixels(plain: Pixels, coloured: Pixels): { share: number; spot: { x: number; y: number } | null } {
  const { width, height } = coloured;
  const hit = new Uint8Array(width * height);
  let count = 0;
  for (let k = 0; k < width * height; k += 1) {
    const i = 3 * k;
    let d = 0;
    for (let c = 0; c < 3; c += 1) d += Math.abs((plain.data[i + c] as number) - (coloured.data[i + c] as number));
    const channels = [coloured.data[i] as number, coloured.data[i + 1] as number, coloured.data[i + 2] as number];
    if (d > 30 && Math.max(...channels) - Math.min(...channels) > 60) {
      hit[k] = 1;
      count += 1;
    }
  }
  const at = (x: number, y: number) => hit[y * width + x] === 1;
  for (let y = 3; y < height - 3; y += 1)
    for (let x = 3; x < width - 3; x += 1)
      if (at(x, y) && at(x - 3, y) && at(x + 3, y) && at(x, y - 3) && at(x, y + 3))
        return { share: count / (width * height), spot: { x, y } };
  return { share: count / (width * height), spot: null };
}

/** a failing comparison's pictures, for a person to look at */
function debugPictures(pictures: Record<string, Pixels>): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "viewer-test-"));
  for (const [name, { data, width, height }] of Object.entries(pictures))
    void sharp(data, { raw: { width, height, channels: 3 } })
      .png()
      .toFile(path.join(dir, `${name}.png`));
  console.error(`the pictures compared are in ${dir}`);
}

async function contextLost(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const gl = (globalThis as unknown as InPage).document.querySelector("canvas.viewer-canvas")?.getContext("webgl2");
    return gl ? gl.isContextLost() : true;
  });
}

async function openViewer(page: Page): Promise<void> {
  await page.goto(`${service.api.origin}/projects/${projectId}`);
  await page.locator('section.viewer[data-ready="true"]').waitFor({ timeout: 60_000 });
  await drawnAfter(page, 0);
}

async function saveScreenshot(page: Page, width: number | string): Promise<void> {
  if (!SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.locator("section.viewer").screenshot({ path: path.join(SCREENSHOTS, `viewer-${width}.png`) });
}

describe("the project's 3D view", () => {
  it("shows the part in the setup's stock with a sensible share of the canvas", async () => {
    const { page } = tab;
    await openViewer(page);
    const share = partShare(await canvasPixels(page));
    assert.ok(share > 0.03 && share < 0.8, `the part covers ${(share * 100).toFixed(1)} % of the canvas`);
    assert.equal(await contextLost(page), false, "the WebGL context is live");
    await saveScreenshot(page, 1280);
    tab.assertClean();
  });

  it("shows only an operation chosen in the tree, and the slider moves the tool and the G-code line", async () => {
    const { page } = tab;
    const all = await canvasPixels(page);
    const first = page.locator('[role="treeitem"][aria-level="3"]').first();
    const name = (await first.getAttribute("aria-label")) ?? "";
    assert.match(name, /^[A-Z][a-z ]+, [a-z ]+ Ø[\d.]+$/, "named by what it is");
    // the tool by its type where its cutting shape would misname it (a face mill cuts flat, as an end mill)
    const faceMilling = page.locator('[role="treeitem"][aria-level="3"][aria-label="Face milling, face mill Ø50"]');
    assert.ok((await faceMilling.count()) > 0, "the face mill is named so");
    let frames = await framesDrawn(page);
    await first.click();
    await drawnAfter(page, frames);
    assert.equal(await first.getAttribute("aria-selected"), "true");
    const one = await canvasPixels(page);
    assert.ok(changedShare(all, one) > 0.002, "the picture changed when one operation was chosen");

    const slider = page.getByLabel(`Tool position in ${name}`);
    assert.equal(await slider.isEnabled(), true);
    const lineAtStart = await page.locator(".gcode-line").textContent();
    const last = Number(await slider.getAttribute("max"));
    assert.ok(last > 2, "the operation has points to walk");
    frames = await framesDrawn(page);
    // halfway through the operation: the tool is down in its work, far from where it came in
    await slider.fill(String(Math.round(last / 2)));
    await drawnAfter(page, frames);
    const moved = await canvasPixels(page);
    if (changedShare(one, moved) <= 0.0005) debugPictures({ all, one, moved });
    assert.ok(changedShare(one, moved) > 0.0005, "the tool moved");
    const lineAtEnd = await page.locator(".gcode-line").textContent();
    assert.notEqual(lineAtEnd, lineAtStart, "the G-code line follows the tool");
    assert.match(lineAtEnd ?? "", /[GXYZ]-?\d/, "a line of G-code");
    assert.equal(await contextLost(page), false);
    tab.assertClean();
  });

  it("works from the keyboard: arrows move, Right and Left open and close, Enter selects", async () => {
    const { page } = tab;
    const setupItem = page.locator('[role="treeitem"][aria-level="1"]').first();
    // its own row: an open setup's middle is one of its children
    await setupItem.locator(".tree-row").first().click();
    await setupItem.focus();
    assert.equal(await setupItem.getAttribute("aria-expanded"), "true");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await setupItem.getAttribute("aria-expanded"), "false");
    await page.keyboard.press("ArrowRight");
    assert.equal(await setupItem.getAttribute("aria-expanded"), "true");
    await page.keyboard.press("ArrowDown");
    const block = page.locator('[role="treeitem"][aria-level="2"]').first();
    assert.equal(await block.evaluate((element) => element === element.ownerDocument.activeElement), true);
    await page.keyboard.press("Enter");
    assert.equal(await block.getAttribute("aria-selected"), "true");
    assert.equal(await setupItem.getAttribute("aria-selected"), "false");
    tab.assertClean();
  });

  it("shows the simulated stock after the first roughing and after the setup, coloured against the part", async (t) => {
    const { page } = tab;
    const stockToggle = page.getByLabel("Simulated stock");
    const materialLeft = page.locator(".material-left");
    const mm3 = async () => Number(await materialLeft.getAttribute("data-mm3"));
    try {
      let frames = await framesDrawn(page);
      await page.getByRole("button", { name: "Show all" }).click();
      await page.locator('[role="treeitem"][aria-level="1"][aria-selected="true"]').waitFor();
      await drawnAfter(page, frames);
      const setupPlain = await canvasPixels(page);

      // the first roughing, found by what it is: it leaves its allowance, which is beyond the tolerance
      const roughing = page.locator('[role="treeitem"][aria-level="3"][aria-label^="Roughing,"]').first();
      frames = await framesDrawn(page);
      await roughing.click();
      await drawnAfter(page, frames);
      const roughingPlain = await canvasPixels(page);
      frames = await framesDrawn(page);
      await stockToggle.check();
      await materialLeft.waitFor({ timeout: 120_000 });
      await drawnAfter(page, frames);
      const roughed = await canvasPixels(page);
      const early = await mm3();
      assert.match((await materialLeft.textContent()) ?? "", /^Material left: [\d,.]+ mm³$/);
      // the roughing's own toolpaths are blue too: only pixels the stock turned blue count
      const blue = newlyShare(roughingPlain, roughed, "blue");
      if (blue <= 0.001) debugPictures({ roughingPlain, roughed });
      assert.ok(blue > 0.001, `blue where the roughing left material: ${(blue * 100).toFixed(2)} %`);
      await saveScreenshot(page, "stock-1280");

      // after the setup's last operation: mostly within tolerance, and less left
      frames = await framesDrawn(page);
      await page.getByRole("button", { name: "Show all" }).click();
      // the figure goes while the setup's stock is fetched, and comes back with it
      await page.waitForFunction(
        (previous) => {
          const now = (globalThis as unknown as InPage).document
            .querySelector(".material-left")
            ?.getAttribute("data-mm3");
          return now !== undefined && now !== null && now !== previous;
        },
        String(early),
        { timeout: 120_000 },
      );
      await drawnAfter(page, frames);
      const finished = await canvasPixels(page);
      const left = await mm3();
      assert.ok(Number.isFinite(left) && left >= 0, `material left ${left} mm³`);
      assert.ok(early > left, `after the first roughing ${early} mm³ left, after the setup ${left} mm³`);
      const green = newlyShare(setupPlain, finished, "green");
      if (green <= 0.01) debugPictures({ setupPlain, finished });
      assert.ok(green > 0.01, `green where the part is finished: ${(green * 100).toFixed(2)} %`);
      t.diagnostic(
        `after the first roughing: ${Math.round(early)} mm³ left, ${(blue * 100).toFixed(2)} % newly blue; ` +
          `after the setup: ${Math.round(left)} mm³ left, ${(green * 100).toFixed(2)} % newly green`,
      );
      assert.equal(await contextLost(page), false);
      tab.assertClean();
    } finally {
      await stockToggle.uncheck();
    }
  });

  it("colours the part's faces by feature and names the feature under the pointer", async (t) => {
    const { page } = tab;
    // counted before the click: its frame may be drawn before the click returns
    let frames = await framesDrawn(page);
    await page.getByRole("button", { name: "Show all" }).click();
    await page.locator('[role="treeitem"][aria-level="1"][aria-selected="true"]').waitFor();
    await drawnAfter(page, frames);
    await drawnAfter(page, 0);
    const plain = await canvasPixels(page);
    // the stock on first: it takes the part's place, so Features must take it off, or they
    // would colour a hidden part
    const stockToggle = page.getByLabel("Simulated stock");
    await stockToggle.check();
    await page.locator(".material-left").waitFor({ timeout: 120_000 });
    frames = await framesDrawn(page);
    await page.getByLabel("Features").check();
    assert.equal(await stockToggle.isChecked(), false, "one overlay at a time");
    await page.locator(".feature-hover").waitFor();
    await page.locator('canvas.viewer-canvas[data-part-colours="features"]').waitFor();
    // the frame the colours asked for is drawn at the next animation frame
    await drawnAfter(page, frames);
    await drawnAfter(page, 0);
    const coloured = await canvasPixels(page);
    const { share, spot } = featurePixels(plain, coloured);
    if (share <= 0.002 || !spot) debugPictures({ plain, coloured });
    assert.ok(share > 0.002, `${(share * 100).toFixed(2)} % of the canvas took a feature's colour`);
    t.diagnostic(`${(share * 100).toFixed(2)} % of the canvas took a feature's colour`);
    const hint = await page.locator(".feature-hover").textContent();
    // the pointer over a patch of a feature's colour
    assert.ok(spot, "a patch of the part took a feature's colour");
    const box = await canvasOf(page).boundingBox();
    assert.ok(box);
    const scale = box.width / coloured.width;
    await page.mouse.move(box.x + spot.x * scale, box.y + spot.y * scale);
    await page.waitForFunction(
      (before) => {
        const said = (globalThis as unknown as InPage).document.querySelector(".feature-hover")?.textContent;
        return said !== before && said !== "No feature here";
      },
      hint,
      { timeout: 10_000 },
    );
    const named = (await page.locator(".feature-hover").textContent()) ?? "";
    assert.match(named, /^[a-z0-9 ]+(, .+)?$/, `the feature under the pointer: ${named}`);
    await page.getByLabel("Features").uncheck();
    assert.equal(await contextLost(page), false);
    tab.assertClean();
  });

  it("opens for a job imported from a .famc file, which has no planning task", async () => {
    const { page } = tab;
    const imported = await service.importedProject(projectId);
    await page.goto(`${service.api.origin}/projects/${imported}`);
    await page.locator('section.viewer[data-ready="true"]').waitFor({ timeout: 60_000 });
    await drawnAfter(page, 0);
    assert.ok(partShare(await canvasPixels(page)) > 0.03, "the imported job's part is shown");
    assert.equal(await contextLost(page), false);
    tab.assertClean();
  });

  it("fits a phone's width without scrolling sideways", async () => {
    const phone = await openPage(browser, { viewport: PHONE });
    try {
      await phone.context.addCookies(await tab.context.cookies());
      await openViewer(phone.page);
      const overflow = await phone.page.evaluate(() => {
        const root = (globalThis as unknown as InPage).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      assert.ok(overflow <= 0, `the page is ${overflow} px wider than the phone`);
      assert.ok(partShare(await canvasPixels(phone.page)) > 0.02, "the part is shown on the phone too");
      await saveScreenshot(phone.page, PHONE.width);
      phone.assertClean();
    } finally {
      await phone.close();
    }
  });
});
