/**
 * The customer's quote document in Chromium: Settings > Quote settings saves the shop's name,
 * address, terms, validity and delivery; the quote page saves the customer and quantities of a
 * project whose current job holds a plan (test/support/every-move-plan.ts) over partC's mesh,
 * refuses quantities that do not increase beside the field, and downloads the PDF (read back with
 * pdftotext) named by its quote number.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import { startTestApi, type TestApi } from "../support/api.ts";
import {
  launchBrowser,
  openPage,
  refusedWith,
  signInThroughPage,
  startedTogether,
  type WatchedPage,
} from "../support/browser.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { everyMovePlan } from "../support/every-move-plan.ts";
import { projectWithPlan } from "../support/planning.ts";
import { givePassword, TEST_PASSWORD } from "../support/sessions.ts";
import { readPdf } from "../support/setup-sheet-text.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

let db: TestDatabase;
let api: TestApi;
let browser: Browser;
let alice: TestUser;
let tab: WatchedPage;
let projectId: string;

before(async () => {
  db = await createTestDatabase();
  [api, browser] = await startedTogether(startTestApi(db), launchBrowser());
  alice = await createTestUser(db.owner, "alice");
  await givePassword(db.owner, alice.id);
  projectId = await projectWithPlan(api, alice, everyMovePlan(false, "vise"), { name: "Bracket" });
  tab = await openPage(browser);
  await signInThroughPage(tab.page, api.origin, alice.email, TEST_PASSWORD);
  tab.assertClean([refusedWith(401)]);
});

after(async () => {
  await tab?.close();
  await browser?.close();
  await api?.close();
  await db?.drop();
});

describe("the customer's quote in the page", () => {
  it("saves the shop's details in the quote settings", async () => {
    const { page } = tab;
    await page.goto(`${api.origin}/settings/quote`);
    const form = page.getByRole("form", { name: "Your shop on the customer's quote" });
    await form.getByLabel("Shop name").fill("Fräserei Nord");
    await form.getByLabel("Address").fill("Hafenweg 2\n20457 Hamburg");
    await form.getByLabel("Terms").fill("Payment within 14 days.");
    await form.getByLabel("Validity (days)").fill("45");
    await form.getByLabel("Delivery time (working days)").fill("8");
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByText("Saved.").waitFor();
    const settings = await api.request<Record<string, unknown>>("GET", "/quote/settings", { key: alice.key });
    assert.equal(settings.body.shop_name, "Fräserei Nord");
    assert.equal(settings.body.shop_address, "Hafenweg 2\n20457 Hamburg");
    assert.equal(settings.body.validity_days, 45);
    assert.equal(settings.body.delivery_days, 8);
    tab.assertClean([refusedWith(401)]);
  });

  it("saves the customer and quantities, refuses decreasing ones by the field, and downloads the PDF", async () => {
    const { page } = tab;
    await page.goto(`${api.origin}/projects/${projectId}/quote`);
    const form = page.getByRole("form", { name: "Customer's quote" });
    await form.getByLabel("Customer", { exact: true }).fill("ACME Robotics");
    await form.getByLabel("Quantities").fill("50, 10");
    await form.getByRole("button", { name: "Save" }).click();
    await page.locator("#customer-quantity-breaks-error").waitFor();
    tab.assertClean([refusedWith(401), refusedWith(400)]);
    await form.getByLabel("Quantities").fill("1, 10, 50");
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByText("Saved.").waitFor();
    const job = await api.request<{ customer_name: string; quantity_breaks: number[] }>(
      "GET",
      `/projects/${projectId}/quote/job`,
      { key: alice.key },
    );
    assert.equal(job.body.customer_name, "ACME Robotics");
    assert.deepEqual(job.body.quantity_breaks, [1, 10, 50]);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Customer's PDF (Deutsch)" }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^Q-\d{4}-0001_Bracket_de\.pdf$/);
    const { text } = readPdf(fs.readFileSync(await download.path()));
    for (const fact of ["Angebot", "Fräserei Nord", "Hamburg", "ACME Robotics", "Q-", "8 Arbeitstage"])
      assert.ok(text.includes(fact), `${fact}: ${text}`);
    assert.doesNotMatch(text, /Gemeinkosten|Gewinn|Stundensatz/);
    await page
      .getByTestId("quote-number")
      .getByText(/Quote number: Q-\d{4}-0001/)
      .waitFor();
    tab.assertClean([refusedWith(401), refusedWith(400)]);
  });
});
