/**
 * Signing in and out in Chromium: the sign-in form, a wrong password's message, landing on
 * Projects, the one-time login link (used once, then refused), sign-out ending the session,
 * the device cookie that keeps a guesser from locking the owner's browser out, and a
 * state-changing request without the CSRF token refused.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import pg from "pg";
import { readEnv } from "../../config/env.ts";
import { createLoginLink } from "../../scripts/cli/sign-in.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import {
  launchBrowser,
  startedTogether,
  openPage,
  openSignedInPage,
  refusedWith,
  signInThroughPage,
} from "../support/browser.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { givePassword, signIn, TEST_PASSWORD } from "../support/sessions.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

let db: TestDatabase;
let api: TestApi;
let browser: Browser;
let alice: TestUser;

before(async () => {
  db = await createTestDatabase();
  [api, browser] = await startedTogether(startTestApi(db), launchBrowser());
  alice = await createTestUser(db.owner, "alice");
  await givePassword(db.owner, alice.id);
});

after(async () => {
  await browser?.close();
  await api?.close();
  await db?.drop();
});

async function loginLink(userId: string): Promise<string> {
  const client = new pg.Client({ connectionString: db.ownerUrl });
  await client.connect();
  try {
    const link = await createLoginLink(client, userId, readEnv({ PUBLIC_BASE_URL: api.origin }));
    return link;
  } finally {
    await client.end();
  }
}

describe("signing in", () => {
  it("shows the sign-in form for any page when signed out", async () => {
    const tab = await openPage(browser);
    try {
      await tab.page.goto(`${api.origin}/settings/keys`);
      await tab.page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
      assert.equal(await tab.page.getByLabel("Email").getAttribute("type"), "email");
      assert.equal(await tab.page.getByLabel("Password").getAttribute("type"), "password");
      assert.ok(await tab.page.getByRole("button", { name: "Sign in" }).isVisible());
      // the session check at start is refused (not signed in): that is how the page knows
      tab.assertClean([refusedWith(401)]);
    } finally {
      await tab.close();
    }
  });

  it("says a wrong password is wrong, and stays on the form", async () => {
    const tab = await openPage(browser);
    try {
      await tab.page.goto(`${api.origin}/sign-in`);
      await tab.page.getByLabel("Email").fill(alice.email);
      await tab.page.getByLabel("Password").fill("not the password");
      await tab.page.getByRole("button", { name: "Sign in" }).click();
      const alert = tab.page.getByRole("alert");
      await alert.waitFor();
      assert.match(await alert.innerText(), /Email or password is wrong\./);
      assert.ok(await tab.page.getByLabel("Password").isVisible());
      const cookies = await tab.context.cookies();
      assert.equal(cookies.filter((c) => c.name === "swarf_session").length, 0, "no session cookie");
      tab.assertClean([refusedWith(401)]);
    } finally {
      await tab.close();
    }
  });

  it("lands on Projects with the right password; the nav shows the email; sign-out ends the session", async () => {
    const tab = await openPage(browser);
    try {
      await signInThroughPage(tab.page, api.origin, alice.email, TEST_PASSWORD);
      assert.equal(new URL(tab.page.url()).pathname, "/projects");
      const nav = tab.page.getByRole("navigation", { name: "Main navigation" });
      assert.match(await nav.innerText(), new RegExp(alice.email.replace(/[.]/g, "\\.")));
      const cookie = (await tab.context.cookies()).find((c) => c.name === "swarf_session");
      assert.ok(cookie, "the session cookie is set");
      assert.equal(cookie.httpOnly, true);
      assert.equal(cookie.sameSite, "Lax");
      assert.equal(String(await tab.page.evaluate("document.cookie")).includes("swarf_session"), false);

      // a reload keeps the session
      await tab.page.reload();
      await tab.page.getByRole("heading", { level: 1, name: "Projects" }).waitFor();

      await tab.page.getByRole("button", { name: "Sign out" }).click();
      await tab.page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
      const stale = await api.request("GET", "/backend-api/api/app/session", {
        headers: { Cookie: `swarf_session=${cookie.value}` },
      });
      assert.equal(stale.status, 401, "the ended session is refused");
      tab.assertClean([refusedWith(401)]);
    } finally {
      await tab.close();
    }
  });

  it("signs in a browser that has signed in before while a guesser keeps the account locked for others", async () => {
    const dora = await createTestUser(db.owner, "dora");
    await givePassword(db.owner, dora.id);
    const owner = await openPage(browser);
    const stranger = await openPage(browser);
    try {
      await signInThroughPage(owner.page, api.origin, dora.email, TEST_PASSWORD);
      const device = (await owner.context.cookies()).find((c) => c.name === "swarf_device");
      assert.ok(device, "the device cookie is set");
      assert.equal(device.httpOnly, true);
      assert.equal(device.sameSite, "Lax");
      const days = (device.expires * 1000 - Date.now()) / 86_400_000;
      assert.ok(days > 89.9 && days <= 90, `expires in ${days} days`);
      assert.equal(String(await owner.page.evaluate("document.cookie")).includes("swarf_device"), false);
      await owner.page.getByRole("button", { name: "Sign out" }).click();
      await owner.page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();

      // a guesser who knows the email fills the account's limit (10)
      for (let i = 0; i < 10; i++) {
        const guess = await api.request("POST", "/backend-api/api/app/session", {
          body: { email: dora.email, password: `guess number ${i}` },
        });
        assert.equal(guess.status, 401);
      }

      await stranger.page.goto(`${api.origin}/sign-in`);
      await stranger.page.getByLabel("Email").fill(dora.email);
      await stranger.page.getByLabel("Password").fill(TEST_PASSWORD);
      await stranger.page.getByRole("button", { name: "Sign in" }).click();
      const alert = stranger.page.getByRole("alert");
      await alert.waitFor();
      assert.match(await alert.innerText(), /too many failed sign-ins for this account/);
      assert.equal((await stranger.context.cookies()).filter((c) => c.name === "swarf_session").length, 0);
      stranger.assertClean([refusedWith(401), refusedWith(429)]);

      // the owner's browser, signed out but with its device cookie, is spared the account's limit
      await signInThroughPage(owner.page, api.origin, dora.email, TEST_PASSWORD);
      owner.assertClean([refusedWith(401)]);
    } finally {
      await owner.close();
      await stranger.close();
    }
  });

  it("refuses a state-changing request without the CSRF token, and nothing changes", async () => {
    const session = await signIn(api, alice.email);
    const tab = await openSignedInPage(browser, api.origin, session.token);
    try {
      await tab.page.goto(`${api.origin}/projects`);
      await tab.page.getByRole("heading", { level: 1, name: "Projects" }).waitFor();
      const answer = await tab.page.evaluate(async () => {
        const response = await fetch("/backend-api/api/app/keys", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ name: "forged" }),
        });
        return { status: response.status, body: (await response.json()) as { detail: { code: string } } };
      });
      assert.equal(answer.status, 403);
      assert.equal(answer.body.detail.code, "csrf_token_invalid");
      const keys = await tab.page.evaluate(async () => (await fetch("/backend-api/api/app/keys")).json());
      assert.equal(
        (keys as { items: { name: string }[] }).items.some((k) => k.name === "forged"),
        false,
        "no key was made",
      );
      tab.assertClean([refusedWith(403)]);
    } finally {
      await tab.close();
    }
  });

  it("signs in with a one-time login link, takes the token off the address bar, and refuses it a second time", async () => {
    const link = await loginLink(alice.id);
    const first = await openPage(browser);
    try {
      await first.page.goto(link);
      await first.page.getByRole("heading", { level: 1, name: "Projects" }).waitFor();
      assert.equal(new URL(first.page.url()).hash, "", "the token is gone from the address bar");
      first.assertClean([refusedWith(401)]);
    } finally {
      await first.close();
    }
    const second = await openPage(browser);
    try {
      await second.page.goto(link);
      const alert = second.page.getByRole("alert");
      await alert.waitFor();
      assert.match(await alert.innerText(), /new link/i);
      assert.ok(await second.page.getByRole("link", { name: "Sign in with email and password" }).isVisible());
      second.assertClean([refusedWith(401)]);
    } finally {
      await second.close();
    }
  });
});
