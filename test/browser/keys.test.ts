/**
 * Settings > API keys in Chromium: a key made in the page (every scope ticked by default) is
 * shown once, copied, and works against the public API; revoked with a confirmation, the API
 * refuses it (401). A key named like an XSS attempt is shown as text. Another user's key id
 * cannot be revoked.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
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

const XSS = "<img src=x onerror=alert(1)>";

let db: TestDatabase;
let api: TestApi;
let browser: Browser;
let alice: TestUser;
let tab: WatchedPage;
const dialogs: string[] = [];

before(async () => {
  db = await createTestDatabase();
  [api, browser] = await startedTogether(startTestApi(db), launchBrowser());
  alice = await createTestUser(db.owner, "alice");
  await givePassword(db.owner, alice.id);
  tab = await openPage(browser);
  await tab.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: api.origin });
  tab.page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signInThroughPage(tab.page, api.origin, alice.email, TEST_PASSWORD);
  await tab.page.getByRole("link", { name: "API keys" }).click();
  await tab.page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
  tab.assertClean([refusedWith(401)]);
});

after(async () => {
  await tab?.close();
  await browser?.close();
  await api?.close();
  await db?.drop();
});

async function createInPage(name: string): Promise<string> {
  const { page } = tab;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByTestId("new-key");
  await shown.waitFor();
  return (await shown.innerText()).trim();
}

function rowOf(name: string) {
  return tab.page.getByRole("row").filter({ hasText: name });
}

describe("API keys in the page", () => {
  it("ticks every scope by default, shows the new key once with a Copy button, and the key works", async () => {
    const { page } = tab;
    const boxes = page.getByRole("group", { name: "Scopes" }).getByRole("checkbox");
    await boxes.first().waitFor(); // the scopes arrive with their own request, after the page
    const count = await boxes.count();
    assert.ok(count >= 5, `the scopes are offered (${count})`);
    for (let i = 0; i < count; i++) assert.equal(await boxes.nth(i).isChecked(), true);

    const key = await createInPage("ci pipeline");
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByRole("button", { name: "Copied" }).waitFor();
    assert.equal(await page.evaluate("navigator.clipboard.readText()"), key);

    const row = rowOf("ci pipeline");
    await row.waitFor();
    const prefix = (await row.locator("code").first().innerText()).trim();
    assert.ok(prefix.length > 0 && key.startsWith(prefix.replace(/[.…]+$/, "")), `${prefix} is the key's start`);
    assert.match(await row.innerText(), /Never/);
    assert.match(await row.innerText(), /All scopes/, "a key with every scope says so, not the list");

    const projects = await fetch(`${api.origin}/backend-api/api/public/v1/projects`, { headers: { "X-API-Key": key } });
    assert.equal(projects.status, 200, "the new key is accepted by the public API");

    await page.getByRole("button", { name: "Done" }).click();
    assert.equal(await page.getByTestId("new-key").count(), 0, "the plaintext is gone");
    await page.reload();
    await rowOf("ci pipeline").waitFor();
    assert.equal(await page.getByText(key).count(), 0, "never shown again");
    tab.assertClean();
  });

  it("lists the scopes of a key that lacks some", async () => {
    const { page } = tab;
    await page.getByRole("group", { name: "Scopes" }).getByLabel("webhooks:write").uncheck();
    await createInPage("no webhooks");
    await page.getByRole("button", { name: "Done" }).click();
    const text = await rowOf("no webhooks").innerText();
    assert.match(text, /projects:read/);
    assert.doesNotMatch(text, /webhooks:write|All scopes/);
    await page.getByRole("group", { name: "Scopes" }).getByLabel("webhooks:write").check();
    tab.assertClean();
  });

  it("revokes a key after a confirmation, and the API refuses it at once (401)", async () => {
    const { page } = tab;
    const key = await createInPage("short lived");
    await page.getByRole("button", { name: "Done" }).click();
    const row = rowOf("short lived");
    await row.getByRole("button", { name: /Revoke/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /short lived/);
    // Cancel keeps it
    await dialog.getByRole("button", { name: "Cancel" }).click();
    assert.equal(await rowOf("short lived").count(), 1);

    await row.getByRole("button", { name: /Revoke/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
    await page.getByText("Key “short lived” revoked.").waitFor();
    await rowOf("short lived").waitFor({ state: "detached" });

    const refused = await fetch(`${api.origin}/backend-api/api/public/v1/projects`, { headers: { "X-API-Key": key } });
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { detail: { code: string } }).detail.code, "api_key_invalid");
    tab.assertClean();
  });

  it("shows a key named like an XSS attempt as text", async () => {
    const { page } = tab;
    await createInPage(XSS);
    await page.getByRole("button", { name: "Done" }).click();
    const cell = page.getByRole("cell", { name: XSS, exact: true });
    await cell.waitFor();
    assert.equal(await cell.innerText(), XSS);
    assert.equal(await page.locator("main img").count(), 0, "no element was made from the name");
    assert.deepEqual(dialogs, [], "no script ran");
    tab.assertClean();
  });

  it("shows the API's refusal of an empty name beside the field, and makes no key", async () => {
    const { page } = tab;
    const before = await page.getByRole("row").count();
    await page.getByLabel("Name", { exact: true }).fill("");
    await page.getByRole("button", { name: "Create key" }).click();
    const message = page.locator(".field-error, .form-error").first();
    await message.waitFor();
    assert.ok((await message.innerText()).length > 0);
    assert.equal(await page.getByRole("row").count(), before);
    tab.assertClean([/status of 400/]);
  });

  it("answers 404 for revoking another user's key, which keeps working", async () => {
    const bob = await createTestUser(db.owner, "bob");
    const bobsKey = await db.owner.query<{ id: string }>("select id from app_private.api_keys where user_id = $1", [
      bob.id,
    ]);
    const id = bobsKey.rows[0]?.id;
    assert.ok(id);
    const answer = await tab.page.evaluate(async (keyId) => {
      const session = (await (await fetch("/backend-api/api/app/session")).json()) as { csrf_token: string };
      const response = await fetch(`/backend-api/api/app/keys/${keyId}`, {
        method: "DELETE",
        headers: { "X-CSRF-Token": session.csrf_token },
      });
      return response.status;
    }, id);
    assert.equal(answer, 404);
    const still = await fetch(`${api.origin}/backend-api/api/public/v1/projects`, {
      headers: { "X-API-Key": bob.key },
    });
    assert.equal(still.status, 200);
  });
});
