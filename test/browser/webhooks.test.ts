/**
 * Settings > Webhooks in Chromium, on the public API's /webhooks routes: register an endpoint
 * and see its secret once, a refused URL's message beside the field, disable and enable,
 * rotate the secret (a new one, shown once), a task's event delivered to a real receiver and
 * shown in the delivery log with its attempt, redelivered, delete.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import type { WebhookPolicy } from "../../webhooks/address-policy.ts";
import { processDelivery } from "../../webhooks/delivery.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import {
  launchBrowser,
  startedTogether,
  openPage,
  refusedWith,
  signInThroughPage,
  type WatchedPage,
} from "../support/browser.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { givePassword, TEST_PASSWORD } from "../support/sessions.ts";
import { createTestUser, type TestUser } from "../support/users.ts";
import { startReceiver, type TestReceiver } from "../support/webhook-receiver.ts";

const POLICY: WebhookPolicy = { allowed: ["loopback"], requireHttps: false, timeoutMs: 2000 };

let receiver: TestReceiver;
/** the receiver's URL: a real HTTP server on loopback */
let RECEIVER: string;

let db: TestDatabase;
let api: TestApi;
let browser: Browser;
let alice: TestUser;
let tab: WatchedPage;

interface Endpoint {
  id: string;
  url: string;
  enabled: boolean;
}

async function endpoints(): Promise<Endpoint[]> {
  const list = await api.request<{ items: Endpoint[] }>("GET", "/webhooks", { key: alice.key });
  return list.body.items;
}

before(async () => {
  receiver = await startReceiver("/swarf-events");
  RECEIVER = receiver.url;
  db = await createTestDatabase();
  [api, browser] = await startedTogether(startTestApi(db), launchBrowser());
  alice = await createTestUser(db.owner, "alice");
  await givePassword(db.owner, alice.id);
  tab = await openPage(browser);
  await signInThroughPage(tab.page, api.origin, alice.email, TEST_PASSWORD);
  await tab.page.getByRole("link", { name: "Webhooks" }).click();
  await tab.page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
  tab.assertClean([refusedWith(401)]);
});

after(async () => {
  await tab?.close();
  await browser?.close();
  await api?.close();
  await db?.drop();
  await receiver?.close();
});

describe("webhooks in the page", () => {
  it("registers an endpoint for the events ticked and shows its secret once", async () => {
    const { page } = tab;
    await page.getByLabel("URL").fill(RECEIVER);
    await page.getByRole("checkbox", { name: "task.succeeded" }).check();
    await page.getByRole("checkbox", { name: "quote.ready" }).check();
    await page.getByRole("button", { name: "Register endpoint" }).click();
    const secret = (await page.getByTestId("webhook-secret").innerText()).trim();
    assert.match(secret, /^whsec_[0-9a-f]{64}$/);
    const [endpoint] = await endpoints();
    assert.equal(endpoint?.url, RECEIVER);
    const item = page.getByRole("listitem").filter({ hasText: RECEIVER });
    await item.waitFor();
    assert.match(await item.innerText(), /task\.succeeded, quote\.ready/);
    assert.match(await item.innerText(), /Enabled/);

    await page.reload();
    await page.getByRole("listitem").filter({ hasText: RECEIVER }).waitFor();
    assert.equal(await page.getByTestId("webhook-secret").count(), 0, "the secret is not shown again");
    assert.equal(await page.getByText(secret).count(), 0);
    tab.assertClean();
  });

  it("shows the API's refusal of a URL beside the field, and registers nothing", async () => {
    const { page } = tab;
    const before = (await endpoints()).length;
    await page.getByLabel("URL").fill("ftp://example.com/hook");
    await page.getByRole("button", { name: "Register endpoint" }).click();
    const message = page.locator("#webhook-url-error");
    await message.waitFor();
    assert.ok((await message.innerText()).length > 0);
    assert.equal(await page.getByLabel("URL").getAttribute("aria-invalid"), "true");
    assert.equal((await endpoints()).length, before);
    await page.getByLabel("URL").fill("");
    tab.assertClean([/status of 400/]);
  });

  it("disables and enables an endpoint, and rotates its secret after a confirmation", async () => {
    const { page } = tab;
    const item = page.getByRole("listitem").filter({ hasText: RECEIVER });
    await item.getByRole("button", { name: "Disable" }).click();
    await item.getByText("Disabled", { exact: true }).waitFor();
    assert.equal((await endpoints())[0]?.enabled, false);
    await item.getByRole("button", { name: "Enable" }).click();
    await item.getByText("Enabled", { exact: true }).waitFor();
    assert.equal((await endpoints())[0]?.enabled, true);

    await item.getByRole("button", { name: "Rotate secret" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Rotate" }).click();
    const secret = (await page.getByTestId("webhook-secret").innerText()).trim();
    assert.match(secret, /^whsec_[0-9a-f]{64}$/);
    await page.getByRole("button", { name: "Done" }).click();
    tab.assertClean();
  });

  it("shows a task's delivery with its attempts, and redelivers it", async () => {
    const { page } = tab;
    const project = await api.request<{ id: string }>("POST", "/projects", {
      key: alice.key,
      body: { name: "Log", customer: "X" },
    });
    const { rows } = await db.owner.query<{ id: string }>(
      "insert into app_public.tasks (user_id, project_id, task_name, worker_task) values ($1, $2, 'test.log', 'test_idle') returning id",
      [alice.id, project.body.id],
    );
    // the SQL side emits task.started, then task.succeeded: the endpoint takes the latter only
    await db.owner.query("update app_public.tasks set status = 'running', progress = 0.25 where id = $1", [
      rows[0]!.id,
    ]);
    await db.owner.query("update app_public.tasks set status = 'success', progress = 1 where id = $1", [rows[0]!.id]);
    // the delivery task's work, as a worker runs it: one attempt to the receiver
    const { rows: pending } = await db.owner.query<{ id: string }>(
      "select id from app_public.webhook_deliveries where event_type = 'task.succeeded'",
    );
    const deliveryId = pending[0]?.id;
    assert.ok(deliveryId, "task.succeeded made a delivery");
    await processDelivery(db.owner, deliveryId, POLICY);
    assert.equal(receiver.received.length, 1);

    const item = page.getByRole("listitem").filter({ hasText: RECEIVER });
    await item.getByRole("button", { name: "Deliveries" }).click();
    const row = item.getByRole("row").filter({ hasText: "task.succeeded" });
    await row.waitFor();
    assert.match(await row.innerText(), /delivered/);
    assert.match(await row.innerText(), /#1 delivered, 200, [\d,]+ ms/);
    assert.equal(await item.getByRole("row").filter({ hasText: "task.started" }).count(), 0);

    await row.getByRole("button", { name: "Redeliver" }).click();
    await item.getByText("Queued for delivery again.").waitFor();
    await processDelivery(db.owner, deliveryId, POLICY);
    assert.equal(receiver.received.length, 2, "sent again");
    await item.getByRole("button", { name: "Hide deliveries" }).click();
    await item.getByRole("button", { name: "Deliveries" }).click();
    await item.getByText(/#2 delivered, 200/).waitFor();
    await item.getByRole("button", { name: "Hide deliveries" }).click();
    tab.assertClean();
  });

  it("deletes an endpoint after a confirmation", async () => {
    const { page } = tab;
    const item = page.getByRole("listitem").filter({ hasText: RECEIVER });
    await item.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete endpoint" }).click();
    await page.getByText("No endpoints yet.").waitFor();
    assert.deepEqual(await endpoints(), []);
    tab.assertClean();
  });
});
