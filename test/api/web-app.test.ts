/**
 * The API process serves the web app: index.html (no-cache, with a CSP and the <base href> of
 * PUBLIC_BASE_URL's path) for page paths, hashed assets cached for a year, the JSON 404 kept
 * under /backend-api, and a page naming `npm run build:web` when there is no build. A build
 * of its own in a temporary folder, so the test does not depend on web/dist's state; the
 * browser tests (test/browser) load the real one.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

const INDEX = `<!doctype html><html><head><base href="/" /><script type="module" src="./assets/index-abc123.js"></script></head><body><div id="app"></div></body></html>`;
const SCRIPT = "console.log('app');";

let db: TestDatabase;
let dist: string;
let api: TestApi;
let prefixed: TestApi;
let unbuilt: TestApi;

before(async () => {
  db = await createTestDatabase();
  dist = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-web-dist-"));
  fs.mkdirSync(path.join(dist, "assets"));
  fs.writeFileSync(path.join(dist, "index.html"), INDEX);
  fs.writeFileSync(path.join(dist, "assets", "index-abc123.js"), SCRIPT);
  api = await startTestApi(db, { webDist: dist });
  prefixed = await startTestApi(db, { webDist: dist, env: { PUBLIC_BASE_URL: "https://cam.example.com/swarf/" } });
  unbuilt = await startTestApi(db, { webDist: path.join(dist, "missing") });
});

after(async () => {
  await Promise.all([api.close(), prefixed.close(), unbuilt.close()]);
  await db.drop();
  fs.rmSync(dist, { recursive: true, force: true });
});

const get = (server: TestApi, pathname: string, method = "GET") => fetch(`${server.origin}${pathname}`, { method });

describe("the web app's pages", () => {
  for (const pathname of ["/", "/sign-in", "/sign-in/link", "/projects/123/quote", "/settings/keys", "/no/such/page"]) {
    it(`GET ${pathname} answers index.html, never cached, with a CSP`, async () => {
      const response = await get(api, pathname);
      assert.equal(response.status, 200);
      assert.match(response.headers.get("content-type") ?? "", /^text\/html/);
      assert.equal(response.headers.get("cache-control"), "no-cache");
      assert.match(response.headers.get("content-security-policy") ?? "", /script-src 'self'/);
      assert.match(response.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
      assert.equal(response.headers.get("x-content-type-options"), "nosniff");
      const html = await response.text();
      assert.ok(html.includes('<div id="app"></div>'));
      assert.ok(html.includes('<base href="/" />'));
    });
  }

  it("answers HEAD for a page without a body", async () => {
    const response = await get(api, "/projects", "HEAD");
    assert.equal(response.status, 200);
    assert.equal(await response.text(), "");
  });

  it("writes PUBLIC_BASE_URL's path into <base href>, so assets and API calls carry the prefix", async () => {
    const html = await (await get(prefixed, "/settings/webhooks")).text();
    assert.ok(html.includes('<base href="/swarf/" />'), html);
  });

  it("serves hashed assets cached for a year, immutable", async () => {
    const response = await get(api, "/assets/index-abc123.js");
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.match(response.headers.get("content-type") ?? "", /javascript/);
    assert.equal(await response.text(), SCRIPT);
  });

  it("answers a missing asset with the JSON 404, not index.html", async () => {
    const response = await get(api, "/assets/index-gone.js");
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as { detail: { code: string } }).detail.code, "route_not_found");
  });

  it("refuses a path that climbs out of the assets folder", async () => {
    const response = await get(api, "/assets/..%2findex.html");
    assert.notEqual(response.status, 200);
    assert.ok(response.status < 500);
  });

  it("answers odd paths without a 500: bad escapes, climbs, long names", async () => {
    for (const pathname of [
      "/assets/%E0%A4%A",
      "/%",
      "/..%2f..%2fetc/passwd",
      "/assets/..%2f..%2fpackage.json",
      `/${"a".repeat(5000)}`,
      "/assets/.hidden",
    ]) {
      const response = await get(api, pathname);
      assert.ok(response.status < 500, `${pathname}: ${response.status}`);
      assert.ok(!(await response.text()).includes('"name": "swarf"'), `${pathname} shows no file outside the build`);
    }
  });

  it("keeps the JSON 404 under /backend-api, and /healthz and /metrics as they were", async () => {
    for (const pathname of ["/backend-api", "/backend-api/nope", "/backend-api/api/public/v1/nope"]) {
      const response = await get(api, pathname);
      assert.equal(response.status, 404, pathname);
      assert.match(response.headers.get("content-type") ?? "", /json/, pathname);
    }
    const health = await get(api, "/healthz");
    assert.match(health.headers.get("content-type") ?? "", /json/);
    assert.equal((await get(api, "/metrics")).headers.get("content-type")?.startsWith("text/html"), false);
  });

  it("does not answer a page for a method other than GET or HEAD", async () => {
    const response = await get(api, "/projects", "POST");
    assert.equal(response.status, 404);
    assert.match(response.headers.get("content-type") ?? "", /json/);
  });

  it("tells the operator to run npm run build:web when there is no build, with a 503, not a 500", async () => {
    const response = await get(unbuilt, "/settings/keys");
    assert.equal(response.status, 503);
    assert.match(response.headers.get("content-type") ?? "", /^text\/html/);
    assert.equal(response.headers.get("cache-control"), "no-store");
    assert.match(await response.text(), /npm run build:web/);
    assert.equal((await get(unbuilt, "/backend-api/api/public/v1/nope")).status, 404);
  });
});
