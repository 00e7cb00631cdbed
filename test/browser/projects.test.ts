/**
 * The Projects, Project and Quote pages in Chromium, against the real API, worker and OCCT:
 * a project made in the page with partC.step uploaded (progress shown), the stock's size
 * previewed as offsets change, planned with its progress followed to 100 %; the project's
 * summary and downloads; the quote's breakdown, an override saved in place, and the CSV and
 * Excel exports (the files the API gives), its warnings in the page's words with a link to
 * where each is put right. A part uploaded but not planned is planned from the project's own
 * page. Another user's or an unknown project id shows
 * "not found" only; an upload that is not a part shows the API's message; a name and customer
 * like an XSS attempt are shown as text; both widths. With SWARF_WEB_SCREENSHOTS=1 the pages
 * are also saved to docs/web-app/<page>-<width>.png, as test/browser/pages.test.ts saves the others.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import ExcelJS from "exceljs";
import type { Browser, Download, Page } from "playwright-core";
import { repoRoot } from "../../config/env.ts";
import { createGeometryPool, type GeometryPool } from "../../geometry-pool/pool.ts";
import { startWorkerRunner, type WorkerRunner } from "../../workers/runner.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import {
  launchBrowser,
  startedTogether,
  loadedImageWidth,
  openPage,
  PHONE,
  refusedWith,
  signInThroughPage,
  type WatchedPage,
} from "../support/browser.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { catalogueAssembly, PLANNING_MATERIAL } from "../support/planning.ts";
import { givePassword, TEST_PASSWORD } from "../support/sessions.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

const PART = path.resolve(repoRoot, "../shared/fixtures/parts/partC.step");
const XSS_NAME = "<img src=x onerror=alert(1)>";
const XSS_CUSTOMER = "<script>alert(2)</script>";
/** partC plans in 20 to 30 s alone; a loaded machine takes longer */
const PLAN_TIMEOUT_MS = 300_000;
const SCREENSHOTS = process.env.SWARF_WEB_SCREENSHOTS === "1" ? path.join(repoRoot, "docs", "web-app") : undefined;

async function screenshot(page: Page, name: string, width: number): Promise<void> {
  if (!SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
}

let db: TestDatabase;
let api: TestApi;
let geometry: GeometryPool;
let runner: WorkerRunner;
let browser: Browser;
let alice: TestUser;
let bob: TestUser;
let libraryName: string;
let tab: WatchedPage;
const dialogs: string[] = [];
/** the project the first test makes and plans; the later tests read it */
let plannedId = "";

before(async () => {
  db = await createTestDatabase();
  geometry = createGeometryPool({ size: 1, timeoutMs: 600_000 });
  [api, browser] = await startedTogether(
    geometry.ready().then(() => startTestApi(db, { geometry, env: { RATE_LIMIT_PER_MINUTE: "100000" } })),
    launchBrowser(),
  );
  runner = await startWorkerRunner({
    ownerUrl: db.ownerUrl,
    taskNames: ["plan_cam"],
    services: { geometry },
    concurrency: 1,
    heartbeatSeconds: 1,
    leaseStaleSeconds: 60,
    pollIntervalMs: 100,
  });
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  await givePassword(db.owner, alice.id);
  libraryName = "One end mill";
  const library = await api.request<{ id: string }>("POST", "/libraries/equipment", {
    key: alice.key,
    body: { library: { name: libraryName, assemblies: [catalogueAssembly("CentreCuttingEndMill", 10)] } },
  });
  assert.equal(library.status, 201, library.text);
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
  await runner?.stop();
  await api?.close();
  await geometry?.close();
  await db?.drop();
});

/** fills the new-project form and uploads `file`; the page then shows the part or an error */
async function newProjectWith(name: string, customer: string, file: { name: string; buffer: Buffer }) {
  const { page } = tab;
  await page.goto(`${api.origin}/projects`);
  await page.getByRole("link", { name: "New project" }).click();
  await page.getByRole("heading", { level: 1, name: "New project" }).waitFor();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Customer").fill(customer);
  await page.getByLabel("Material").selectOption(PLANNING_MATERIAL);
  await page.getByLabel("Tool library").selectOption({ label: libraryName });
  await page
    .getByLabel("Part")
    .setInputFiles({ name: file.name, mimeType: "application/octet-stream", buffer: file.buffer });
  await page.getByRole("button", { name: "Create project and upload" }).click();
}

async function exportFrom(projectId: string, format: "csv" | "excel", language: "en" | "de") {
  const res = await api.request("POST", `/projects/${projectId}/quote/export?format=${format}&language=${language}`, {
    key: alice.key,
  });
  assert.equal(res.status, 200, res.text);
  return res.bytes;
}

async function saved(download: Download): Promise<Buffer> {
  const file = await download.path();
  return fs.readFileSync(file);
}

async function sheetValues(bytes: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]?.eachRow((row) => rows.push(JSON.parse(JSON.stringify(row.values)) as unknown[]));
  return rows;
}

describe("a new project in the page", () => {
  it("uploads partC with progress, previews the stock, plans it to 100 % and lists it as text", async () => {
    const { page } = tab;
    await newProjectWith(XSS_NAME, XSS_CUSTOMER, { name: "partC.step", buffer: fs.readFileSync(PART) });
    // the upload's answer: the part's size read by OCCT
    await page.getByText(/^partC\.step: .* mm, \d+ faces\.$/).waitFor({ timeout: 120_000 });
    const size = page.getByTestId("stock-size");
    const before = await size.innerText();
    await page.getByLabel("+Z").fill("12");
    await page.getByLabel("−X").fill("5");
    const after = await size.innerText();
    const dims = (text: string) =>
      text
        .replace(" mm", "")
        .split(" × ")
        .map((n) => Number(n.replace(",", "")));
    const [bx, by, bz] = dims(before);
    const [ax, ay, az] = dims(after);
    assert.equal(ax! - bx!, 3, `X grows by 5 - 2 mm: ${before} -> ${after}`);
    assert.equal(ay, by);
    assert.equal(az! - bz!, 10, `Z grows by 12 - 2 mm: ${before} -> ${after}`);

    await page.getByRole("button", { name: "Plan" }).click();
    const progress = page.getByTestId("plan-progress");
    await progress.waitFor();
    await page.getByText(/^Planned: \d+ setups/).waitFor({ timeout: PLAN_TIMEOUT_MS });
    assert.equal(await progress.count(), 0, "the progress gives way to the result");
    assert.equal(await page.getByText(/too small to grip/).count(), 0, "the default stock below the part holds");
    assert.match(
      (await page.getByRole("link", { name: "Open the quote" }).getAttribute("href")) ?? "",
      /\/projects\/[^/]+\/quote$/,
      "the result leads on to the quote",
    );
    await page.getByRole("button", { name: "Plan again", exact: true }).waitFor();
    await screenshot(page, "project-new", 1280);

    const projects = await api.request<{ items: { id: string; name: string; customer: string }[] }>(
      "GET",
      "/projects",
      {
        key: alice.key,
      },
    );
    const made = projects.body.items.find((p) => p.name === XSS_NAME);
    assert.ok(made, "the project is stored under the name typed");
    assert.equal(made.customer, XSS_CUSTOMER);
    plannedId = made.id;

    await page.getByRole("link", { name: "Open the project" }).click();
    await page.getByRole("heading", { level: 1, name: XSS_NAME }).waitFor();
    await page.goto(`${api.origin}/projects`);
    const row = page.getByRole("row").filter({ hasText: XSS_NAME });
    await row.getByText(XSS_CUSTOMER).waitFor();
    await row.getByText("Planned").waitFor();
    assert.equal(await page.locator("img[src=x]").count(), 0, "no element made from the name");
    assert.deepEqual(dialogs, [], "no script ran");
    tab.assertClean();
  });

  it("names the machine and library it will use, and takes back the name's error once one is typed", async () => {
    const { page } = tab;
    await page.goto(`${api.origin}/projects/new`);
    const machines = await api.request<{ items: { product_id: string; name: string }[] }>(
      "GET",
      "/libraries/machines",
      {
        key: alice.key,
      },
    );
    const first = machines.body.items[0];
    assert.ok(first, machines.text);
    const machine = page.getByLabel("Machine");
    await machine.locator(`option[value="${first.product_id}"]`).waitFor({ state: "attached" });
    assert.equal(await machine.inputValue(), first.product_id, "the API's default machine, by its name");
    assert.equal(await machine.locator("option", { hasText: /^Default$/ }).count(), 0);
    assert.equal(
      await page
        .getByLabel("Tool library")
        .locator("option", { hasText: /^Default$/ })
        .count(),
      0,
    );
    await page.getByRole("button", { name: "Create project and upload" }).click();
    const error = page.getByText("Give the project a name.");
    await error.waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Bracket");
    await error.waitFor({ state: "detached" });
    assert.equal(await page.getByLabel("Name", { exact: true }).getAttribute("aria-invalid"), null);
    tab.assertClean();
  });

  it("shows the API's message for an upload that is not a part", async () => {
    const { page } = tab;
    await newProjectWith("Not a part", "", { name: "notes.step", buffer: Buffer.from("just some words\n") });
    const message = page.getByRole("alert");
    await message.waitFor();
    assert.match(await message.innerText(), /not a STEP, STL or OCCT BREP file/);
    assert.equal(await page.getByTestId("stock-size").count(), 0, "no stock step without a part");
    // the project made for the refused file is deleted again; the form is back as it was
    const button = page.getByRole("button", { name: "Create project and upload" });
    await button.waitFor();
    assert.equal(await page.getByLabel("Name", { exact: true }).isEnabled(), true);
    const projects = await api.request<{ items: { name: string }[] }>("GET", "/projects?limit=100", {
      key: alice.key,
    });
    assert.deepEqual(
      projects.body.items.filter((p) => p.name === "Not a part"),
      [],
      "no project left behind",
    );
    // as the owner, past RLS: the one project made was deleted (its purge queued), not left
    const made = await db.owner.query<{ deleted: boolean }>(
      "select deleted_at is not null as deleted from app_public.projects where user_id = $1 and name = 'Not a part'",
      [alice.id],
    );
    assert.deepEqual(made.rows, [{ deleted: true }]);
    tab.assertClean([refusedWith(422)]);
  });
});

describe("the projects list", () => {
  it("shows each part's thumbnail, a placeholder without one, in one request for the list", async () => {
    assert.ok(plannedId, "the planning test ran");
    const empty = await api.request<{ id: string }>("POST", "/projects", {
      key: alice.key,
      body: { name: "No part yet", customer: "" },
    });
    assert.equal(empty.status, 201, empty.text);
    const { page } = tab;
    const requests: string[] = [];
    const record = (request: { url(): string }) => requests.push(new URL(request.url()).pathname);
    page.on("request", record);
    try {
      await page.goto(`${api.origin}/projects`);
      const planned = page.getByRole("row").filter({ hasText: XSS_NAME });
      await planned.getByText("Planned").waitFor();
      const image = planned.getByRole("img", { name: "Part partC.step" });
      await image.waitFor();
      assert.equal(await loadedImageWidth(page, "Part partC.step"), 256, "the 256 px thumbnail, loaded");
      assert.equal(await image.getAttribute("loading"), "lazy");
      const box = await image.boundingBox();
      assert.ok(box && box.width === 64 && box.height === 64, `shown at 64 px: ${JSON.stringify(box)}`);
      const none = page.getByRole("row").filter({ hasText: "No part yet" });
      await none.getByText("No preview").waitFor();
      await none.getByText("No part", { exact: true }).waitFor();
      assert.equal(await none.getByRole("img").count(), 0);
      await page.waitForLoadState("networkidle");
    } finally {
      page.off("request", record);
    }
    assert.equal(requests.filter((p) => p.endsWith("/backend-api/api/app/projects")).length, 1, requests.join("\n"));
    assert.equal(requests.filter((p) => p.includes("/tasks")).length, 0, requests.join("\n"));
    assert.equal(requests.filter((p) => p.includes("/public/v1/projects")).length, 0, requests.join("\n"));
    await screenshot(page, "projects-list", 1280);
    tab.assertClean();
  });
});

describe("a planned project", () => {
  it("shows setups, tools, times, completeness, downloads and its tasks", async () => {
    assert.ok(plannedId, "the planning test ran");
    const { page } = tab;
    await page.goto(`${api.origin}/projects/${plannedId}`);
    await page.getByRole("heading", { level: 1, name: XSS_NAME }).waitFor();
    await page.getByRole("heading", { name: /^Completeness: / }).waitFor();
    assert.ok((await page.getByRole("row").filter({ hasText: /^T\d+/ }).count()) > 0, "its tools are listed");
    await page.getByText(/^Total machining time: /).waitFor();
    const tasks = page.getByRole("region", { name: "Tasks" });
    await tasks.getByText("Done").waitFor();
    await tasks.getByText("CAM planning").waitFor();
    await screenshot(page, "project", 1280);

    const gcode = page.getByRole("button", { name: /^G-code, / }).first();
    const [download] = await Promise.all([page.waitForEvent("download"), gcode.click()]);
    const program = (await saved(download)).toString("utf8");
    assert.match(program, /\bM30\b|\bM2\b|%/, "a G-code program");
    tab.assertClean();
  });

  it("reads the quote, saves an override in place and exports CSV and Excel as the API gives them", async () => {
    const { page } = tab;
    await page.goto(`${api.origin}/projects/${plannedId}/quote`);
    await page.getByRole("heading", { level: 1, name: `Quote: ${XSS_NAME}` }).waitFor();
    const total = page.getByTestId("quote-total");
    const before = await total.innerText();
    assert.match(before, /€|EUR|\$|£|CHF/, `money in a currency: ${before}`);

    // the rate says per hour and where it comes from; the API's codes are not shown
    await page.getByText(/^Machine hourly rate: .+\/h, from the machine catalogue; machining /).waitFor();
    const breakdown = await api.request<{ warnings: { code: string }[] }>("GET", `/projects/${plannedId}/quote`, {
      key: alice.key,
    });
    const missing = breakdown.body.warnings.filter((warning) => warning.code === "setup_cost_missing").length;
    assert.ok(missing > 0, "alice's machine has no setup costs");
    const setupCosts = page.locator("p.warning", { hasText: "Setups without a setup cost" });
    assert.equal(await setupCosts.count(), 1, "one line for every setup without a setup cost");
    assert.match(await setupCosts.innerText(), new RegExp(`^Setups without a setup cost: ${missing} of \\d+\\.`));
    assert.match(
      (await setupCosts.getByRole("link", { name: "Set setup costs under Machines" }).getAttribute("href")) ?? "",
      /\/machines$/,
    );
    assert.doesNotMatch(await page.locator("main").innerText(), /no setup cost for|quote job/);

    const overrides = page.getByRole("form", { name: "Quote settings for this project" });
    await page.getByLabel("Quantity").fill("10");
    await overrides.getByRole("button", { name: "Save" }).click();
    await overrides.getByText("Saved.").waitFor();
    const job = await api.request<{ quantity: number }>("GET", `/projects/${plannedId}/quote/job`, { key: alice.key });
    assert.equal(job.body.quantity, 10);
    assert.notEqual(await total.innerText(), before, "the breakdown is read again");

    await page.getByLabel("Quantity").fill("many");
    await overrides.getByRole("button", { name: "Save" }).click();
    await page.locator("#quote-quantity-error, .form-error").first().waitFor();
    tab.assertClean([refusedWith(400), refusedWith(422)]);
    await page.getByLabel("Quantity").fill("10");
    await page.locator("#quote-quantity-error").waitFor({ state: "detached" });

    // a setup's cost for this project: saved as a fixed-price entry of the quote job, priced at once
    const setups = page.getByRole("form", { name: "Setup costs" });
    const first = setups.getByLabel(/^Setup cost .+, EUR$/).first();
    const setupName = ((await first.getAttribute("id")) ?? "").replace("setup-cost-", "");
    await first.fill("35,5");
    await setups.getByRole("button", { name: "Save" }).click();
    await setups.getByText("Saved.").waitFor();
    const quoteJob = await api.request<{ setup_costs: Record<string, { is_fixed_price: string; fix_price: string }> }>(
      "GET",
      `/projects/${plannedId}/quote/job`,
      { key: alice.key },
    );
    assert.deepEqual(
      [quoteJob.body.setup_costs[setupName]?.is_fixed_price, quoteJob.body.setup_costs[setupName]?.fix_price],
      ["true", "35.5"],
    );
    const priced = await api.request<{ lines: { kind: string; ref: string | null; amount: number }[] }>(
      "GET",
      `/projects/${plannedId}/quote`,
      { key: alice.key },
    );
    assert.equal(priced.body.lines.find((l) => l.kind === "setup_cost" && l.ref === setupName)?.amount, 35.5);
    assert.equal(await first.inputValue(), "35.5", "the form shows the amount the breakdown prices");
    assert.match((await first.getAttribute("id")) ?? "", /^setup-cost-/);
    assert.equal(await setups.getByLabel(/^Setup cost Setup cost/).count(), 0, "named by the setup, once");

    for (const language of ["en", "de"] as const) {
      const [csv] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: `CSV (${language === "en" ? "English" : "Deutsch"})` }).click(),
      ]);
      assert.equal(csv.suggestedFilename(), `quote_${plannedId}_${language}.csv`);
      assert.equal(
        (await saved(csv)).toString("utf8"),
        (await exportFrom(plannedId, "csv", language)).toString("utf8"),
      );
      const [excel] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: `Excel (${language === "en" ? "English" : "Deutsch"})`, exact: true }).click(),
      ]);
      assert.equal(excel.suggestedFilename(), `quote_${plannedId}_${language}.xlsx`);
      assert.deepEqual(
        await sheetValues(await saved(excel)),
        await sheetValues(await exportFrom(plannedId, "excel", language)),
      );
    }
    tab.assertClean();
  });

  it("calculates an hourly rate as a preview", async () => {
    const { page } = tab;
    const values: [string, string][] = [
      ["Acquisition costs (EUR)", "250000"],
      ["Interest rate (fraction, 0.06 = 6 %)", "0.05"],
      ["Floor space (m²)", "12"],
      ["Maintenance per year (EUR)", "4000"],
      ["Average power (kW)", "15"],
      ["Operating hours per year", "3000"],
      ["Depreciation years", "10"],
    ];
    for (const [label, value] of values) await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole("button", { name: "Calculate" }).click();
    const shown = page.getByText(/^Hourly rate: /);
    await shown.waitFor();
    await screenshot(page, "project-quote", 1280);
    const preview = await api.request<{ calculated_mhr: number }>("POST", "/quote/mhr/calculate", {
      key: alice.key,
      body: {
        acquisition_costs: 250000,
        interest_rate: 0.05,
        required_floor_space: 12,
        maintenance_cost: 4000,
        average_power_consumption: 15,
        operating_hours: 3000,
        years: 10,
      },
    });
    const expected = new Intl.NumberFormat("en-GB", { style: "currency", currency: "EUR" }).format(
      preview.body.calculated_mhr,
    );
    assert.equal(await shown.innerText(), `Hourly rate: ${expected}/h`);
    tab.assertClean();
  });

  it("lists the cost lines with quantity, rate and amount, saves the quote job's operator rate and shows a bad one's message", async () => {
    const { page } = tab;
    const form = page.getByRole("form", { name: "Rates and times for this quote" });
    const rate = form.getByLabel("Operator rate (EUR/h)");
    assert.equal(await rate.getAttribute("placeholder"), "now 0", "empty: the settings' default shows through");
    await rate.fill("42,5");
    await form.getByLabel("End mills", { exact: true }).fill("0.1");
    await form.getByRole("button", { name: "Save rates" }).click();
    await form.getByText("Saved.").waitFor();
    const job = await api.request<{ cost_model: Record<string, unknown> }>("GET", `/projects/${plannedId}/quote/job`, {
      key: alice.key,
    });
    assert.deepEqual(job.body.cost_model, { operator_rate: 42.5, tool_wear: { end_mill: 0.1 } });
    const b = await api.request<{
      lines: { kind: string; quantity: number; rate: number; amount: number }[];
      direct_cost: number;
    }>("GET", `/projects/${plannedId}/quote`, { key: alice.key });
    const table = page.getByTestId("cost-lines");
    const rows = table.locator("tr[data-kind]");
    // "Saved." shows once the breakdown was read again
    assert.equal(await rows.count(), b.body.lines.length);
    const loading = b.body.lines.find((l) => l.kind === "loading")!;
    assert.equal(loading.rate, 42.5);
    const row = rows.filter({ has: page.locator("td", { hasText: "Loading and unloading" }) });
    const cells = await row.locator("td").allInnerTexts();
    const money = new Intl.NumberFormat("en-GB", { style: "currency", currency: "EUR" }).format(loading.amount);
    assert.deepEqual(cells, [
      "Loading and unloading",
      `${new Intl.NumberFormat("en-GB", { maximumFractionDigits: 4 }).format(loading.quantity)} h`,
      "42.50 EUR / h",
      "this project",
      money,
    ]);
    // one table: the lines, then the totals down to the price, no second list of the lines
    assert.equal(await page.locator("table.breakdown").count(), 1, "the cost lines are shown once");
    const euros = (value: number) =>
      new Intl.NumberFormat("en-GB", { style: "currency", currency: "EUR" }).format(value);
    const totals = await page.getByTestId("cost-totals").locator("td").allInnerTexts();
    assert.equal(totals[0], euros(b.body.direct_cost), "the direct cost adds up the lines");
    assert.equal(
      Math.round(b.body.lines.reduce((sum, line) => sum + line.amount, 0) * 100),
      Math.round(b.body.direct_cost * 100),
    );
    const setupRow = rows.filter({ has: page.locator("td", { hasText: /^Setup cost: / }) }).first();
    assert.equal(
      (await setupRow.locator("td").allInnerTexts())[3],
      "this project",
      "the setup's entry is the project's",
    );
    await table.locator("tr[data-kind=tool_wear]").first().waitFor();

    await rate.fill("-3");
    await form.getByRole("button", { name: "Save rates" }).click();
    await page.locator("#cost-operator_rate-error").waitFor();
    assert.equal(await rate.getAttribute("aria-invalid"), "true");
    tab.assertClean([refusedWith(400)]);
    await rate.fill("");
    await form.getByRole("button", { name: "Save rates" }).click();
    await form.getByText("Saved.").waitFor();
    const cleared = await api.request<{ cost_model: Record<string, unknown> }>(
      "GET",
      `/projects/${plannedId}/quote/job`,
      {
        key: alice.key,
      },
    );
    assert.deepEqual(cleared.body.cost_model, { tool_wear: { end_mill: 0.1 } }, "empty falls through again");
  });
  it("adds, edits and removes an additional cost group; a bad amount is named beside it", async () => {
    const { page } = tab;
    const form = page.getByRole("form", { name: "Additional costs" });
    await form.getByText("None.").waitFor();
    await form.getByRole("button", { name: "Add a group" }).click();
    await form.getByLabel("Group name").fill("Anodising");
    await form.getByLabel("Per part (times the quantity)").check();
    await form.getByLabel("Cost 1", { exact: true }).fill("Black anodising");
    await form.getByLabel("Cost 1, EUR").fill("2,5");
    await form.getByRole("button", { name: "Add a cost" }).click();
    await form.getByLabel("Cost 2", { exact: true }).fill("Masking");
    await form.getByLabel("Cost 2, EUR").fill("a lot");
    await form.getByRole("button", { name: "Save" }).click();
    await page.locator("#additional-group-1-1-cost-error").waitFor();
    assert.equal(await form.getByLabel("Cost 2, EUR").getAttribute("aria-invalid"), "true");
    tab.assertClean([refusedWith(400)]);
    const unchanged = await api.request<{ additional_costs: object }>("GET", `/projects/${plannedId}/quote/job`, {
      key: alice.key,
    });
    assert.deepEqual(unchanged.body.additional_costs, {}, "nothing stored from a refused save");

    await form.getByLabel("Cost 2, EUR").fill("1");
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByText("Saved.").waitFor();
    const job = await api.request<{ additional_costs: object; quantity: number }>(
      "GET",
      `/projects/${plannedId}/quote/job`,
      { key: alice.key },
    );
    assert.deepEqual(job.body.additional_costs, {
      "group-1": {
        Title: "Anodising",
        per_unit: true,
        Costs: [
          { label: "Black anodising", cost: 2.5 },
          { label: "Masking", cost: 1 },
        ],
      },
    });
    const b = await api.request<{ lines: { kind: string; ref: string | null; amount: number }[] }>(
      "GET",
      `/projects/${plannedId}/quote`,
      { key: alice.key },
    );
    const line = b.body.lines.find((l) => l.kind === "additional_cost" && l.ref === "group-1");
    assert.equal(line?.amount, 3.5 * job.body.quantity, "per part, times the quantity");
    const row = page.getByTestId("cost-lines").locator("tr[data-kind=additional_cost]");
    const euros = new Intl.NumberFormat("en-GB", { style: "currency", currency: "EUR" }).format(line.amount);
    await row.filter({ hasText: euros }).waitFor();

    await form.getByRole("button", { name: "Remove the group" }).click();
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByText("Saved.").waitFor();
    const removed = await api.request<{ additional_costs: object }>("GET", `/projects/${plannedId}/quote/job`, {
      key: alice.key,
    });
    assert.deepEqual(removed.body.additional_costs, {});
    assert.equal(await page.getByTestId("cost-lines").locator("tr[data-kind=additional_cost]").count(), 0);
    tab.assertClean();
  });
});

describe("a project planned from its own page", () => {
  it("offers the stock and Plan for a part not planned yet, follows the planning and shows the plan", async () => {
    const { page } = tab;
    await newProjectWith("Planned later", "", { name: "partC.step", buffer: fs.readFileSync(PART) });
    await page.getByTestId("stock-size").waitFor({ timeout: 120_000 });
    const projects = await api.request<{ items: { id: string; name: string }[] }>("GET", "/projects", {
      key: alice.key,
    });
    const later = projects.body.items.find((project) => project.name === "Planned later");
    assert.ok(later, "the project is stored");

    // left before planning: the project's page takes it from there
    await page.goto(`${api.origin}/projects/${later.id}`);
    await page.getByText("The part is uploaded but not planned yet: choose the stock around it, then plan.").waitFor();
    // the part's size read back (the app's own route), so the stock is previewed as after the upload
    await page.getByTestId("stock-size").waitFor();
    await page.getByLabel("−Z").fill("9");
    await page.getByRole("button", { name: "Plan", exact: true }).click();
    await page.getByTestId("plan-progress").waitFor();
    await page.getByRole("heading", { name: /^Completeness: / }).waitFor({ timeout: PLAN_TIMEOUT_MS });
    await page.getByRole("region", { name: "Tasks" }).getByText("CAM planning").waitFor();
    const fold = page.locator("details.replan");
    assert.equal(await fold.getAttribute("open"), null, "planning again waits folded");
    await fold.getByText("Change the stock and plan again").click();
    await fold.getByRole("button", { name: "Plan again", exact: true }).waitFor();
    assert.equal(await fold.getByLabel("−Z").inputValue(), "9", "planning again starts from the stock planned");
    await fold.getByTestId("stock-size").waitFor();
    tab.assertClean();
  });

  it("says there is nothing to plan for a project without a part", async () => {
    const bare = await api.request<{ id: string }>("POST", "/projects", {
      key: alice.key,
      body: { name: "No part yet", customer: "" },
    });
    assert.equal(bare.status, 201, bare.text);
    const { page } = tab;
    await page.goto(`${api.origin}/projects/${bare.body.id}`);
    await page.getByText("No part uploaded: this project has nothing to plan.").waitFor();
    assert.equal(await page.getByRole("button", { name: /^Plan/ }).count(), 0);
    tab.assertClean();
  });
});

describe("the quote in German", () => {
  it("shows the texts and the money in German", async () => {
    const { page } = tab;
    await page.goto(`${api.origin}/projects/${plannedId}/quote`);
    await page.getByRole("heading", { level: 1, name: `Quote: ${XSS_NAME}` }).waitFor();
    await page.getByLabel("Language").selectOption("de");
    try {
      await page.getByRole("heading", { level: 1, name: `Angebot: ${XSS_NAME}` }).waitFor();
      const breakdown = await api.request<{ total_price: number; currency: string }>(
        "GET",
        `/projects/${plannedId}/quote`,
        { key: alice.key },
      );
      const expected = new Intl.NumberFormat("de", { style: "currency", currency: breakdown.body.currency }).format(
        breakdown.body.total_price,
      );
      // the browser's ICU and node's may differ in which no-break space they put before the sign
      const spaces = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ");
      assert.equal(spaces(await page.getByTestId("quote-total").innerText()), spaces(expected));
      await page.getByRole("button", { name: "CSV (Deutsch)" }).waitFor();
      await page.getByRole("heading", { name: "Kostenaufstellung" }).waitFor();
      await page.getByText(/^Aufspannungen ohne Rüstkosten: \d+ von \d+\./).waitFor();
      await page.getByRole("link", { name: "Rüstkosten unter Maschinen festlegen" }).waitFor();
    } finally {
      await page.getByLabel(/Language|Sprache/).selectOption("en");
    }
    tab.assertClean();
  });
});

describe("project ids that are not the user's", () => {
  it("shows not found for another user's project and for an unknown id, on both pages", async () => {
    const theirs = await api.request<{ id: string }>("POST", "/projects", {
      key: bob.key,
      body: { name: "Bob's secret bracket", customer: "Bob's customer" },
    });
    assert.equal(theirs.status, 201, theirs.text);
    const { page } = tab;
    for (const id of [theirs.body.id, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      for (const suffix of ["", "/quote"]) {
        await page.goto(`${api.origin}/projects/${id}${suffix}`);
        await page.getByRole("heading", { level: 1, name: "Project not found" }).waitFor();
        assert.doesNotMatch(await page.locator("main").innerText(), /Bob/);
        if (id === theirs.body.id && suffix === "") await screenshot(page, "project-not-found", 1280);
      }
    }
    tab.assertClean([refusedWith(404), refusedWith(400)]);
  });
});

/** the elements that reach past the window's right edge, for the message of a failed check */
const WIDEST = `[...document.querySelectorAll("main *")]
  .filter((el) => el.getBoundingClientRect().right > window.innerWidth)
  .slice(-3)
  .map((el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className ? "." + el.className : ""))
  .join(", ")`;

describe("on a phone", () => {
  it("lists projects and shows the quote without sideways scrolling", async () => {
    const phone = await openPage(browser, { viewport: PHONE });
    try {
      await signInThroughPage(phone.page, api.origin, alice.email, TEST_PASSWORD);
      const pages = [
        ["projects-list", "/projects"],
        ["project-new", "/projects/new"],
        ["project", `/projects/${plannedId}`],
        ["project-quote", `/projects/${plannedId}/quote`],
      ];
      for (const [name, where] of pages) {
        await phone.page.goto(`${api.origin}${where}`);
        await phone.page.getByRole("heading", { level: 1 }).waitFor();
        await phone.page.waitForLoadState("networkidle");
        const overflow = await phone.page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
        await screenshot(phone.page, name ?? "page", PHONE.width);
        const wide = overflow > 0 ? await phone.page.evaluate<string>(WIDEST) : "";
        assert.ok(overflow <= 0, `${where} fits 390 px (${overflow} px over: ${wide})`);
      }
      phone.assertClean([refusedWith(401)]);
    } finally {
      await phone.close();
    }
  });
});
