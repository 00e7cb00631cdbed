/**
 * The web app in Firefox (Debian's ESR, through puppeteer-core's WebDriver BiDi) at 1280 px and
 * on a 390 px phone, against the real API: sign in with email and password (a wrong one's
 * message first), the navigation bar (behind "Menu" on the phone) reaching every page, an API
 * key made in the page and accepted by the public API, the projects and new-project pages, a
 * webhook endpoint registered; no console error, no 5xx and no sideways scrolling on any page.
 * The Chromium files test each page in depth; this one checks that Firefox runs the same app.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "puppeteer-core";
import { startTestApi, type TestApi } from "../support/api.ts";
import { DESKTOP, PHONE, startedTogether } from "../support/browser.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import {
  attributeOf,
  byLabel,
  byRole,
  type FirefoxPage,
  isShown,
  launchFirefox,
  openFirefoxPage,
  textOf,
  waitForHeading,
  waitForText,
  widths,
} from "../support/firefox.ts";
import { givePassword, TEST_PASSWORD } from "../support/sessions.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

const PAGES = [
  { path: "/projects", heading: "Projects", link: "Projects" },
  { path: "/libraries", heading: "Libraries", link: "Libraries" },
  { path: "/machines", heading: "Machines", link: "Machines" },
  { path: "/settings/keys", heading: "API keys", link: "API keys" },
  { path: "/settings/webhooks", heading: "Webhooks", link: "Webhooks" },
  { path: "/settings/quote", heading: "Quote settings", link: "Quote settings" },
];

let db: TestDatabase;
let api: TestApi;
let browser: Browser;
let alice: TestUser;

before(async () => {
  db = await createTestDatabase();
  [api, browser] = await startedTogether(startTestApi(db), launchFirefox());
  alice = await createTestUser(db.owner, "alice");
  await givePassword(db.owner, alice.id);
  // a row for the projects page to show
  const project = await api.request("POST", "/projects", {
    key: alice.key,
    body: { name: "Bracket", customer: "ACME" },
  });
  assert.equal(project.status, 201, project.text);
});

after(async () => {
  await browser?.close();
  await api?.close();
  await db?.drop();
});

/** the window is the test's width, and the page is no wider */
async function assertNoSidewaysScrolling(page: Page, width: number): Promise<void> {
  const measured = await widths(page);
  assert.equal(measured.window, width, "the window is the viewport's width");
  const where = new URL(page.url()).pathname;
  assert.ok(measured.page <= width, `${where}: no sideways scrolling (${measured.page} px in ${width})`);
}

const NAV = 'nav[aria-label="Main navigation"]';
const MENU = "button.menu-toggle";

for (const viewport of [DESKTOP, PHONE]) {
  const phone = viewport.width === PHONE.width;
  describe(`Firefox at ${viewport.width}x${viewport.height}`, () => {
    let tab: FirefoxPage;

    before(async () => {
      tab = await openFirefoxPage(browser, viewport);
    });

    after(async () => {
      await tab?.close();
    });

    it("signs in with email and password and lands on Projects", async () => {
      const { page } = tab;
      await page.goto(`${api.origin}/projects`);
      await waitForHeading(page, "Sign in");
      await assertNoSidewaysScrolling(page, viewport.width);
      await (await byLabel(page, "Email")).type(alice.email);
      const password = await byLabel(page, "Password");
      await password.type("not the password");
      await byRole(page, "button", "Sign in").click();
      await page.waitForSelector(".form-error");
      assert.ok((await textOf(page, ".form-error"))?.length, "a wrong password's message is shown");
      await password.asLocator().fill(TEST_PASSWORD);
      await byRole(page, "button", "Sign in").click();
      await waitForHeading(page, "Projects");
      assert.equal(new URL(page.url()).pathname, "/projects");
      await waitForText(page, "header", alice.email);
      // the session check while signed out and the wrong password are 401s, which Firefox does
      // not log as errors
      tab.assertClean();
    });

    const navigation = phone
      ? "opens the navigation with Menu, and it reaches every page"
      : "shows the navigation bar, which reaches every page";
    it(navigation, async () => {
      const { page } = tab;
      if (phone) assert.equal(await isShown(page, NAV), false, "the navigation is collapsed");
      else assert.equal(await isShown(page, MENU), false, "no Menu button at 1280 px");
      for (const entry of PAGES) {
        if (phone) {
          assert.equal(await attributeOf(page, MENU, "aria-expanded"), "false");
          await byRole(page, "button", "Menu").click();
          assert.equal(await attributeOf(page, MENU, "aria-expanded"), "true");
        }
        assert.equal(await isShown(page, NAV), true, "the navigation is shown");
        const nav = await page.waitForSelector(NAV);
        const link = await nav?.waitForSelector(`::-p-aria([name=${JSON.stringify(entry.link)}][role="link"])`);
        assert.ok(link, `the navigation links to ${entry.path}`);
        await link.click();
        await waitForHeading(page, entry.heading);
        assert.equal(new URL(page.url()).pathname, entry.path);
        if (phone) assert.equal(await isShown(page, NAV), false, "the menu closes on a choice");
        await assertNoSidewaysScrolling(page, viewport.width);
        tab.assertClean();
      }
    });

    it("creates an API key in the page that the public API accepts", async () => {
      const { page } = tab;
      const name = `firefox ${viewport.width}`;
      await page.goto(`${api.origin}/settings/keys`);
      await waitForHeading(page, "API keys");
      await page.waitForSelector('input[type="checkbox"]'); // the scopes come with their own request
      await (await byLabel(page, "Name")).type(name);
      await byRole(page, "button", "Create key").click();
      await page.waitForSelector('[data-testid="new-key"]');
      const key = (await textOf(page, '[data-testid="new-key"]')) ?? "";
      assert.ok(key.length > 20, `the key is shown (${key})`);
      await assertNoSidewaysScrolling(page, viewport.width);

      const projects = await fetch(`${api.origin}/backend-api/api/public/v1/projects`, {
        headers: { "X-API-Key": key },
      });
      assert.equal(projects.status, 200, "the new key is accepted by the public API");
      const body = (await projects.json()) as { items: { name: string }[] };
      assert.deepEqual(
        body.items.map((item) => item.name),
        ["Bracket"],
        "and lists the user's projects",
      );

      await byRole(page, "button", "Done").click();
      await waitForText(page, "td", name);
      assert.equal(await textOf(page, '[data-testid="new-key"]'), null, "the key is not shown again");
      await assertNoSidewaysScrolling(page, viewport.width);
      tab.assertClean();
    });

    it("renders the projects page and the new-project form", async () => {
      const { page } = tab;
      await page.goto(`${api.origin}/projects`);
      await waitForHeading(page, "Projects");
      await waitForText(page, "main", "Bracket");
      assert.match((await textOf(page, "main")) ?? "", /ACME/);
      await assertNoSidewaysScrolling(page, viewport.width);

      await byRole(page, "link", "New project").click();
      await waitForHeading(page, "New project");
      for (const label of ["Name", "Customer", "Part"]) await byLabel(page, label);
      await byRole(page, "button", "Create project and upload").wait();
      await assertNoSidewaysScrolling(page, viewport.width);
      tab.assertClean();
    });

    it("registers a webhook endpoint and shows its secret once", async () => {
      const { page } = tab;
      const url = `https://hooks.example.com/firefox-${viewport.width}`;
      await page.goto(`${api.origin}/settings/webhooks`);
      await waitForHeading(page, "Webhooks");
      await (await byLabel(page, "URL")).type(url);
      await (await byLabel(page, "task.succeeded")).click();
      await byRole(page, "button", "Register endpoint").click();
      await page.waitForSelector('[data-testid="webhook-secret"]');
      const secret = (await textOf(page, '[data-testid="webhook-secret"]')) ?? "";
      assert.match(secret, /^whsec_[0-9a-f]{64}$/);
      await waitForText(page, "li", url);
      await assertNoSidewaysScrolling(page, viewport.width);

      const list = await api.request<{ items: { url: string; event_types: string[] }[] }>("GET", "/webhooks", {
        key: alice.key,
      });
      assert.deepEqual(list.body.items.find((item) => item.url === url)?.event_types, ["task.succeeded"]);

      await page.reload();
      await waitForText(page, "li", url);
      assert.equal(await textOf(page, '[data-testid="webhook-secret"]'), null, "the secret is not shown again");
      tab.assertClean();
    });
  });
}
