/**
 * Libraries, Machines and Quote settings in Chromium, all through the public API with the
 * session: a library made in the page (its XSS-like name shown as text), a catalogue tool
 * added to it and then in its table and in the API's answer, a Fusion 360 file imported and a
 * bad one refused with the API's message, another user's library not found, a quote setting
 * kept across a reload, a machine's MHR calculated by the API and shown, and the pages at 390 px.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { repoRoot } from "../../config/env.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import {
  launchBrowser,
  startedTogether,
  openPage,
  PHONE,
  refusedWith,
  signInThroughPage,
  type WatchedPage,
} from "../support/browser.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { givePassword, TEST_PASSWORD } from "../support/sessions.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

const XSS = "<img src=x onerror=alert(1)>";
/** with SWARF_WEB_SCREENSHOTS=1 (npm run screenshots:web) the pages below the lists are saved too */
const SCREENSHOTS = process.env.SWARF_WEB_SCREENSHOTS === "1" ? path.join(repoRoot, "docs", "web-app") : undefined;

async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
}
const FUSION_SAMPLE = fs.readFileSync(
  path.join(repoRoot, "kernel/tools/catalogue/testdata/fusion-library-sample.json"),
);

interface LibraryBody {
  id: string;
  library: { name: string; assemblies: { uuid: string; name: string }[] };
}

let db: TestDatabase;
let api: TestApi;
let browser: Browser;
let alice: TestUser;
let bob: TestUser;
let tab: WatchedPage;
const dialogs: string[] = [];

before(async () => {
  db = await createTestDatabase();
  [api, browser] = await startedTogether(startTestApi(db), launchBrowser());
  [alice, bob] = await Promise.all([
    createTestUser(db.owner, "alice", { emptyLibrary: true }),
    createTestUser(db.owner, "bob", { emptyLibrary: true }),
  ]);
  await givePassword(db.owner, alice.id);
  tab = await openPage(browser);
  tab.page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signInThroughPage(tab.page, api.origin, alice.email, TEST_PASSWORD);
  tab.assertClean([refusedWith(401)]);
});

after(async () => {
  await tab?.close();
  await browser?.close();
  await api?.close();
  await db?.drop();
});

async function library(id: string): Promise<LibraryBody> {
  const res = await api.request<LibraryBody>("GET", `/libraries/equipment/${id}`, { key: alice.key });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

function libraryIdOfPage(): string {
  const id = new URL(tab.page.url()).pathname.split("/").at(-1);
  assert.ok(id, tab.page.url());
  return id;
}

describe("Libraries", () => {
  it("creates a library named like an XSS attempt, shown as text, and opens it", async () => {
    const { page } = tab;
    await page.getByRole("link", { name: "Libraries" }).click();
    await page.getByRole("heading", { level: 1, name: "Libraries" }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill(XSS);
    await page.getByRole("button", { name: "Create library" }).click();
    await page.getByRole("heading", { level: 1, name: XSS }).waitFor();
    assert.equal(await page.locator("img").count(), 0, "no element made from the name");
    assert.equal((await library(libraryIdOfPage())).library.name, XSS);
    await page.getByRole("link", { name: /All libraries/ }).click();
    await page.getByRole("link", { name: XSS, exact: true }).waitFor();
    assert.deepEqual(dialogs, [], "no script ran");
    tab.assertClean();
  });

  it("searches the catalogue and adds a tool: it shows in the table and the API has it", async () => {
    const { page } = tab;
    await page.getByRole("link", { name: XSS, exact: true }).click();
    await page.getByRole("heading", { level: 2, name: "Add from the catalogue" }).waitFor();
    const id = libraryIdOfPage();
    const found = await api.request<{ results: { article_number: string; name: string }[] }>(
      "GET",
      "/equipment/external-catalogue/search?q=drill&limit=20",
      { key: alice.key },
    );
    const first = found.body.results[0];
    assert.ok(first, "the catalogue has drills");

    await page.getByLabel("Article number, name or diameter").fill("drill");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const results = page.getByRole("table", { name: "Add from the catalogue" });
    await results.getByRole("row").filter({ hasText: first.article_number }).first().waitFor();
    await results
      .getByRole("button", { name: `Add ${first.article_number}`, exact: true })
      .first()
      .click();
    await page
      .getByRole("status")
      .getByText(/added to the library/)
      .waitFor();

    const assemblies = page.getByRole("table", { name: /Assemblies/ });
    await assemblies.getByRole("row").nth(1).waitFor();
    const stored = (await library(id)).library.assemblies;
    assert.equal(stored.length, 1);
    assert.match(await assemblies.innerText(), new RegExp(stored[0]!.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    assert.match(await assemblies.innerText(), /\d mm/, "the diameter in mm");
    tab.assertClean();
  });

  it("refuses a file that is not a Fusion library with the API's message, then imports a real one", async () => {
    const { page } = tab;
    const id = libraryIdOfPage();
    const file = page.getByLabel("Library file");
    await file.setInputFiles({ name: "tools.json", mimeType: "application/json", buffer: Buffer.from("no json") });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const alert = page.getByRole("alert").filter({ hasText: "the file is not JSON" });
    await alert.waitFor();
    assert.equal((await library(id)).library.assemblies.length, 1, "nothing changed");
    tab.assertClean([refusedWith(400)]);

    await file.setInputFiles({ name: "maker.json", mimeType: "application/json", buffer: FUSION_SAMPLE });
    await page.getByLabel("Manufacturer").fill("Acme Cutters");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByRole("status").getByText("8 tools imported.").waitFor();
    await page.getByText("Skipped: 4").waitFor();
    assert.equal((await library(id)).library.assemblies.length, 9);
    await page.getByRole("heading", { name: /Assemblies \(9\)/ }).waitFor();
    await page.getByLabel("Article number, name or diameter").fill("drill 8");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByRole("table", { name: "Add from the catalogue" }).waitFor();
    // the search done: the button says Search again (not Searching…)
    await page.getByRole("button", { name: "Search", exact: true }).waitFor();
    await screenshot(page, "library");
    tab.assertClean();
  });

  it("lists the tools the library added in the user's tool table", async () => {
    const { page } = tab;
    await page.getByRole("link", { name: /All libraries/ }).click();
    const tools = page.getByRole("table", { name: "Your tools" });
    await tools.getByRole("row").nth(9).waitFor();
    tab.assertClean();
  });

  it("shows another user's library as not found", async () => {
    const { page } = tab;
    const theirs = await api.request<{ id: string }>("POST", "/libraries/equipment", {
      key: bob.key,
      body: { library: { name: "Bob's secret tools" } },
    });
    assert.equal(theirs.status, 201);
    await page.goto(`${api.origin}/libraries/${theirs.body.id}`);
    await page.getByRole("heading", { level: 1, name: "Library not found" }).waitFor();
    await page.getByRole("alert").waitFor();
    assert.equal(await page.getByText("Bob's secret tools").count(), 0);
    tab.assertClean([refusedWith(404)]);
  });
});

describe("Quote settings", () => {
  it("saves a setting and shows it after a reload; a value out of range shows the API's message", async () => {
    const { page } = tab;
    await page.goto(`${api.origin}/settings/quote`);
    await page.getByRole("heading", { level: 1, name: "Quote settings" }).waitFor();
    await page.getByLabel("Tax (%)").fill("19.5");
    await page.getByLabel("Profit (%)").fill("12,5");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Settings saved.").waitFor();
    await page.reload();
    assert.equal(await page.getByLabel("Tax (%)").inputValue(), "19.5");
    assert.equal(await page.getByLabel("Profit (%)").inputValue(), "12.5");
    const stored = await api.request<{ tax: number; profit: number }>("GET", "/quote/settings", { key: alice.key });
    assert.deepEqual([stored.body.tax, stored.body.profit], [19.5, 12.5]);

    await page.getByLabel("Discount (%)").fill("250");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.locator("#qs-discount-error").waitFor();
    assert.equal(await page.getByLabel("Discount (%)").getAttribute("aria-invalid"), "true");
    tab.assertClean([refusedWith(400)]);
  });

  it("edits the cost model's defaults, keeps them after a reload and shows a bad rate's message", async () => {
    const { page } = tab;
    await page.goto(`${api.origin}/settings/quote`);
    const form = page.getByRole("form", { name: "Rates and times" });
    await form.getByLabel("Setup time per clamping (h)").waitFor();
    assert.equal(await form.getByLabel("Setup time per clamping (h)").inputValue(), "0.5", "the default shows");
    await form.getByLabel("Setup rate (EUR/h)").fill("65");
    await form.getByLabel("Taps").fill("0,35");
    await form.getByRole("button", { name: "Save rates" }).click();
    await form.getByText("Saved.").waitFor();
    await page.reload();
    assert.equal(await form.getByLabel("Setup rate (EUR/h)").inputValue(), "65");
    assert.equal(await form.getByLabel("Taps").inputValue(), "0.35");
    const stored = await api.request<{ cost_model: { setup_rate: number; tool_wear: { tap: number } } }>(
      "GET",
      "/quote/settings",
      { key: alice.key },
    );
    assert.deepEqual([stored.body.cost_model.setup_rate, stored.body.cost_model.tool_wear.tap], [65, 0.35]);

    await form.getByLabel("Operator attendance (% of machining time)").fill("120");
    await form.getByRole("button", { name: "Save rates" }).click();
    await page.locator("#cost-operator_attendance_percentage-error").waitFor();
    assert.equal(
      await form.getByLabel("Operator attendance (% of machining time)").getAttribute("aria-invalid"),
      "true",
    );
    tab.assertClean([refusedWith(400)]);
  });
});

describe("Machines", () => {
  it("calculates a machine's MHR through the API and shows the rate it computed", async () => {
    const { page } = tab;
    const machines = await api.request<{ items: { product_id: string; name: string }[] }>(
      "GET",
      "/libraries/machines",
      {
        key: alice.key,
      },
    );
    const machine = machines.body.items[0];
    assert.ok(machine, "the user has machines");
    await page.getByRole("link", { name: "Machines" }).click();
    await page.getByRole("heading", { level: 1, name: "Machines" }).waitFor();
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: machine.name }) });
    await card.getByRole("button", { name: "Quote configuration" }).click();
    const inputs: Record<string, string> = {
      "Acquisition costs (EUR)": "250000",
      "Interest rate (fraction, 0.06 = 6 %)": "0.06",
      "Floor space (m²)": "20",
      "Maintenance per year (EUR)": "5000",
      "Average power (kW)": "15",
      "Operating hours per year": "3000",
      "Depreciation years": "10",
    };
    for (const [label, value] of Object.entries(inputs)) await card.getByLabel(label, { exact: true }).fill(value);
    await card.getByRole("button", { name: "Calculate and save" }).click();
    const shown = card.getByTestId(`calculated-mhr-${machine.product_id}`);
    await shown.waitFor();

    const record = await api.request<{ calculated_mhr: number }>(
      "GET",
      `/libraries/machines/${machine.product_id}/mhr`,
      {
        key: alice.key,
      },
    );
    assert.equal(record.status, 200, record.text);
    const rate = new Intl.NumberFormat("en-GB", { style: "currency", currency: "EUR" }).format(
      record.body.calculated_mhr,
    );
    assert.equal((await shown.innerText()).trim(), `${rate} /h`);
    // the rate quotes take is now the calculated one
    await card.getByTestId(`effective-mhr-${machine.product_id}`).filter({ hasText: rate }).waitFor();
    await card.getByLabel("Name", { exact: true }).fill("Setup");
    await card.getByLabel("Value", { exact: true }).fill("45");
    await card.getByRole("button", { name: "Add setup cost" }).click();
    await card.getByRole("cell", { name: "Setup", exact: true }).waitFor();
    await screenshot(page, "machine-quote");
    tab.assertClean();
  });
  it("edits the machine's layer of the cost model: the settings' value shows through, a bad rate is named", async () => {
    const { page } = tab;
    const machines = await api.request<{ items: { product_id: string; name: string }[] }>(
      "GET",
      "/libraries/machines",
      {
        key: alice.key,
      },
    );
    const machine = machines.body.items[0]!;
    await page.goto(`${api.origin}/machines`);
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: machine.name }) });
    await card.getByRole("button", { name: "Quote configuration" }).click();
    const form = card.getByRole("form", { name: "Rates and times on this machine" });
    const setupRate = form.getByLabel("Setup rate (EUR/h)");
    await setupRate.waitFor();
    // the quote settings' 65 (saved above) is what an empty field falls through to
    assert.equal(await setupRate.getAttribute("placeholder"), "now 65");
    assert.equal(await setupRate.inputValue(), "");
    await setupRate.fill("72,5");
    await form.getByLabel("Drills").fill("0.05");
    await form.getByRole("button", { name: "Save rates" }).click();
    await form.getByText("Saved.").waitFor();
    const stored = await api.request<{ cost_model: Record<string, unknown> }>(
      "GET",
      `/libraries/machines/${machine.product_id}/quote`,
      { key: alice.key },
    );
    assert.deepEqual(stored.body.cost_model, { setup_rate: 72.5, tool_wear: { drill: 0.05 } });
    const settings = await api.request<{ cost_model: { setup_rate: number } }>("GET", "/quote/settings", {
      key: alice.key,
    });
    assert.equal(settings.body.cost_model.setup_rate, 65, "the settings' layer is left as it was");

    await form.getByLabel("Programming rate (EUR/h)").fill("-4");
    await form.getByRole("button", { name: "Save rates" }).click();
    await form.locator(".field-error").first().waitFor();
    assert.equal(await form.getByLabel("Programming rate (EUR/h)").getAttribute("aria-invalid"), "true");
    tab.assertClean([refusedWith(400)]);
    await form.getByLabel("Programming rate (EUR/h)").fill("");
    await setupRate.fill("");
    await form.getByRole("button", { name: "Save rates" }).click();
    await form.getByText("Saved.").waitFor();
    const cleared = await api.request<{ cost_model: Record<string, unknown> }>(
      "GET",
      `/libraries/machines/${machine.product_id}/quote`,
      { key: alice.key },
    );
    assert.deepEqual(cleared.body.cost_model, { tool_wear: { drill: 0.05 } }, "empty falls through again");
  });
});

describe("at 390 px", () => {
  it("shows each page without console errors, reached through the collapsed menu", async () => {
    const phone = await openPage(browser, { viewport: PHONE });
    try {
      const { page } = phone;
      await signInThroughPage(page, api.origin, alice.email, TEST_PASSWORD);
      for (const [link, heading] of [
        ["Libraries", "Libraries"],
        ["Machines", "Machines"],
        ["Quote settings", "Quote settings"],
      ] as const) {
        await page.getByRole("button", { name: "Menu" }).click();
        await page.getByRole("link", { name: link }).click();
        await page.getByRole("heading", { level: 1, name: heading }).waitFor();
        const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
        assert.ok(overflow <= 0, `${heading}: no sideways scrolling (${overflow} px)`);
      }
      // the pages with their contents open
      const libraries = await api.request<{ items: { id: string; library: { name: string } }[] }>(
        "GET",
        "/libraries/equipment",
        { key: alice.key },
      );
      const filled = libraries.body.items.find((item) => item.library.name === XSS);
      await page.goto(`${api.origin}/libraries/${filled?.id}`);
      await page.getByRole("heading", { level: 2, name: /Assemblies/ }).waitFor();
      // on the phone a row's Remove waits behind its Details
      await page
        .getByRole("button", { name: /^Details / })
        .first()
        .click();
      await page.getByRole("button", { name: "Remove" }).first().waitFor();
      await screenshot(page, "library");
      await page.goto(`${api.origin}/machines`);
      await page.getByRole("button", { name: "Quote configuration" }).first().click();
      await page.getByRole("button", { name: "Calculate and save" }).waitFor();
      const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
      assert.ok(overflow <= 0, `a machine's configuration: no sideways scrolling (${overflow} px)`);
      await screenshot(page, "machine-quote");
      phone.assertClean([refusedWith(401)]);
    } finally {
      await phone.close();
    }
  });
});
