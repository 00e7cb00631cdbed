/**
 * Every page of the app in Chromium at 1280 px and on a 390 px phone: it renders its heading
 * with no console error and no 5xx; on the phone the navigation is behind "Menu" and still
 * reaches every page, by mouse and by keyboard; the language switch turns the texts German and
 * is kept; numbers and dates follow the locale. With SWARF_WEB_SCREENSHOTS=1 (`npm run
 * screenshots:web`) each page is also saved to docs/web-app/<page>-<width>.png.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { repoRoot } from "../../config/env.ts";
import { saveWorkpiece } from "../../db/queries/workpieces.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import {
  DESKTOP,
  launchBrowser,
  startedTogether,
  loadedImageWidth,
  openPage,
  openSignedInPage,
  PHONE,
  refusedWith,
  type WatchedPage,
} from "../support/browser.ts";
import { asUser } from "../support/as-user.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { partC } from "../support/fixture-workpiece.ts";
import { givePassword, signIn, TEST_PASSWORD } from "../support/sessions.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

const SCREENSHOTS = process.env.SWARF_WEB_SCREENSHOTS === "1" ? path.join(repoRoot, "docs", "web-app") : undefined;

const PAGES = [
  { name: "projects", path: "/projects", heading: "Projects", link: "Projects" },
  { name: "libraries", path: "/libraries", heading: "Libraries", link: "Libraries" },
  { name: "machines", path: "/machines", heading: "Machines", link: "Machines" },
  { name: "settings-keys", path: "/settings/keys", heading: "API keys", link: "API keys" },
  { name: "settings-webhooks", path: "/settings/webhooks", heading: "Webhooks", link: "Webhooks" },
  { name: "settings-quote", path: "/settings/quote", heading: "Quote settings", link: "Quote settings" },
];

/** pages the navigation does not link to, checked for their width as well */
const INNER_PAGES = [
  { name: "project-new", path: "/projects/new", heading: "New project" },
  { name: "library", path: "/libraries/<default>", heading: "Default library" },
];

let db: TestDatabase;
let api: TestApi;
let browser: Browser;
let alice: TestUser;
/** one sign-in for the file; each test's browser context carries its cookie */
let sessionToken: string;
let defaultLibraryId: string;

before(async () => {
  db = await createTestDatabase();
  [api, browser] = await startedTogether(startTestApi(db), launchBrowser());
  alice = await createTestUser(db.owner, "alice");
  await givePassword(db.owner, alice.id);
  // something in the lists, so the screenshots show rows
  await api.request("POST", "/webhooks", {
    key: alice.key,
    body: { url: "https://hooks.example.com/swarf", event_types: ["task.succeeded", "quote.ready"] },
  });
  for (const [name, customer] of [
    ["Pump housing", "Acme Hydraulics"],
    ["Bracket", "Müller GmbH"],
  ]) {
    const made = await api.request<{ id: string }>("POST", "/projects", { key: alice.key, body: { name, customer } });
    assert.equal(made.status, 201, made.text);
    if (name !== "Bracket") continue;
    const part = await partC();
    await asUser(api.pool, alice, (client) =>
      saveWorkpiece(client, made.body.id, part.ingested, part.original, part.glb, part.png, {
        filename: part.filename,
      }),
    );
  }
  const libraries = await api.request<{ items: { id: string; is_default: boolean }[] }>("GET", "/libraries/equipment", {
    key: alice.key,
  });
  defaultLibraryId = libraries.body.items.find((library) => library.is_default)?.id ?? "";
  assert.ok(defaultLibraryId, libraries.text);
  const session = await signIn(api, alice.email);
  sessionToken = session.token;
  const key = await session.request("POST", "/backend-api/api/app/keys", { body: { name: "CI pipeline" }, csrf: true });
  assert.equal(key.status, 201, key.text);
  if (SCREENSHOTS) fs.mkdirSync(SCREENSHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await api?.close();
  await db?.drop();
});

async function screenshot(page: Page, name: string, width: number): Promise<void> {
  if (!SCREENSHOTS) return;
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
}

async function signedIn(viewport: { width: number; height: number }, locale = "en-GB"): Promise<WatchedPage> {
  const tab = await openSignedInPage(browser, api.origin, sessionToken, { viewport, locale });
  await tab.page.goto(`${api.origin}/projects`);
  await tab.page.getByRole("heading", { level: 1 }).first().waitFor();
  return tab;
}

for (const viewport of [DESKTOP, PHONE]) {
  describe(`at ${viewport.width} px`, () => {
    it("shows the sign-in page and the login-link page without errors", async () => {
      const tab = await openPage(browser, { viewport });
      try {
        await tab.page.goto(`${api.origin}/sign-in`);
        await tab.page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
        await screenshot(tab.page, "sign-in", viewport.width);
        const width = await tab.page.evaluate("document.documentElement.scrollWidth");
        assert.ok(Number(width) <= viewport.width, `no sideways scrolling (${width} px)`);
        await tab.page.goto(`${api.origin}/sign-in/link#not-a-token`);
        await tab.page.getByRole("alert").waitFor();
        await screenshot(tab.page, "sign-in-link-refused", viewport.width);
        tab.assertClean([refusedWith(401)]);
      } finally {
        await tab.close();
      }
    });

    it("renders every page with its heading, no console error and no sideways scrolling", async () => {
      const tab = await signedIn(viewport);
      try {
        for (const entry of PAGES) {
          await tab.page.goto(`${api.origin}${entry.path}`);
          await tab.page.getByRole("heading", { level: 1, name: entry.heading }).waitFor();
          if (entry.name === "settings-webhooks")
            await tab.page.getByText("https://hooks.example.com/swarf").first().waitFor();
          if (entry.name === "settings-keys")
            await tab.page.getByRole("row").filter({ hasText: "CI pipeline" }).waitFor();
          if (entry.name === "projects") assert.ok((await loadedImageWidth(tab.page, "Part partC.stl")) > 0);
          if (entry.name === "libraries") {
            // the starter library's 179 tools: their first 10 (long-lists.test.ts has the rest)
            await tab.page.getByRole("table", { name: "Your holders" }).waitFor();
            await tab.page.getByRole("table", { name: "Your tools" }).waitFor();
            const height = Number(await tab.page.evaluate("document.documentElement.scrollHeight"));
            const aim = viewport.width === PHONE.width ? 6000 : 2500;
            assert.ok(height < aim, `/libraries is ${height} px tall`);
          }
          const width = await tab.page.evaluate("document.documentElement.scrollWidth");
          assert.ok(Number(width) <= viewport.width, `${entry.path}: no sideways scrolling (${width} px)`);
          await screenshot(tab.page, entry.name, viewport.width);
          tab.assertClean();
        }
        for (const entry of INNER_PAGES) {
          await tab.page.goto(`${api.origin}${entry.path.replace("<default>", defaultLibraryId)}`);
          await tab.page.getByRole("heading", { level: 1, name: entry.heading }).waitFor();
          const width = await tab.page.evaluate("document.documentElement.scrollWidth");
          assert.ok(Number(width) <= viewport.width, `${entry.path}: no sideways scrolling (${width} px)`);
          tab.assertClean();
        }
        await tab.page.goto(`${api.origin}/no/such/page`);
        await tab.page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
        const width = await tab.page.evaluate("document.documentElement.scrollWidth");
        assert.ok(Number(width) <= viewport.width, `the page not found: no sideways scrolling (${width} px)`);
        tab.assertClean();
      } finally {
        await tab.close();
      }
    });
  });
}

describe("on a 390 px phone", () => {
  it("hides the navigation behind Menu, which reaches every page and closes after a choice", async () => {
    const tab = await signedIn(PHONE);
    try {
      const { page } = tab;
      const menu = page.getByRole("button", { name: "Menu" });
      const nav = page.getByRole("navigation", { name: "Main navigation" });
      assert.equal(await menu.getAttribute("aria-expanded"), "false");
      assert.equal(await nav.isVisible(), false, "the nav is collapsed");
      for (const entry of PAGES) {
        await menu.click();
        assert.equal(await menu.getAttribute("aria-expanded"), "true");
        if (entry.name === "settings-keys") await screenshot(page, "menu-open", PHONE.width);
        await nav.getByRole("link", { name: entry.link, exact: true }).click();
        await page.getByRole("heading", { level: 1, name: entry.heading }).waitFor();
        assert.equal(new URL(page.url()).pathname, entry.path);
        assert.equal(await nav.isVisible(), false, "the menu closes on a choice");
      }
      tab.assertClean();
    } finally {
      await tab.close();
    }
  });

  it("reaches the pages with the keyboard alone", async () => {
    const tab = await signedIn(PHONE);
    try {
      const { page } = tab;
      await page.keyboard.press("Tab"); // skip link
      await page.keyboard.press("Tab"); // brand
      await page.keyboard.press("Tab"); // Menu
      assert.equal(await page.evaluate("document.activeElement.textContent"), "Menu");
      await page.keyboard.press("Enter");
      await page.keyboard.press("Tab"); // Projects
      await page.keyboard.press("Tab"); // Libraries
      assert.equal(await page.evaluate("document.activeElement.textContent"), "Libraries");
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { level: 1, name: "Libraries" }).waitFor();
      tab.assertClean();
    } finally {
      await tab.close();
    }
  });
});

describe("languages", () => {
  it("follows the browser's German, switches to English and keeps the choice", async () => {
    const tab = await openPage(browser, { locale: "de-DE" });
    try {
      const { page } = tab;
      await page.goto(`${api.origin}/sign-in`);
      await page.getByRole("heading", { level: 1, name: "Anmelden" }).waitFor();
      await page.getByLabel("E-Mail").fill(alice.email);
      await page.getByLabel("Passwort").fill(TEST_PASSWORD);
      await page.getByRole("button", { name: "Anmelden" }).click();
      await page.getByRole("heading", { level: 1, name: "Projekte" }).waitFor();
      await page.getByRole("img", { name: "Bauteil partC.stl" }).waitFor();
      await page.getByRole("row").filter({ hasText: "Pump housing" }).getByText("Keine Vorschau").waitFor();
      await page.getByRole("link", { name: "API-Schlüssel" }).click();
      await page.getByRole("heading", { level: 1, name: "API-Schlüssel" }).waitFor();
      await page.getByRole("row").filter({ hasText: "CI pipeline" }).waitFor();
      const width = await page.evaluate("document.documentElement.scrollWidth");
      assert.ok(Number(width) <= DESKTOP.width, `German's longer words scroll nothing sideways (${width} px)`);
      await screenshot(page, "settings-keys-de", DESKTOP.width);

      await page.getByRole("combobox", { name: "Sprache" }).selectOption("en");
      await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
      await page.reload();
      await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
      assert.equal(await page.evaluate("document.documentElement.lang"), "en");
      tab.assertClean([refusedWith(401)]);
    } finally {
      await tab.close();
    }
  });

  it("writes dates in the reader's locale", async () => {
    const tab = await openSignedInPage(browser, api.origin, sessionToken, { locale: "de-DE" });
    try {
      const { page } = tab;
      await page.goto(`${api.origin}/settings/webhooks`);
      const item = page.getByRole("listitem").filter({ hasText: "https://hooks.example.com/swarf" });
      await item.waitFor();
      const year = new Date().getFullYear();
      // de-DE's medium date: "29.11.2026, 06:30"
      assert.match(await item.innerText(), new RegExp(`\\d{2}\\.\\d{2}\\.${year}, \\d{2}:\\d{2}`));
      tab.assertClean();
    } finally {
      await tab.close();
    }
  });
});
