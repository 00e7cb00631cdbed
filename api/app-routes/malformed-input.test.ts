/**
 * Malformed input to the app routes, generated with fast-check (as test/security does for the
 * public route table): arbitrary JSON, bodies shaped almost right, arbitrary path ids, cookies
 * and CSRF tokens. Every answer is below 500 and every refusal is the error envelope whose
 * request_id is the X-Request-Id header. SWARF_FUZZ_RUNS scales the runs.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { SESSION_COOKIE } from "../../auth/session-token.ts";
import { APP_ROUTES_PATH } from "../../http/base-path.ts";
import { startTestApi, type TestApi, type TestResponse } from "../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../test/support/database.ts";
import { givePassword, signIn, type TestSession } from "../../test/support/sessions.ts";
import { createTestUser, type TestUser } from "../../test/support/users.ts";

const SCALE = Number(process.env.SWARF_FUZZ_RUNS ?? 1);
const runs = (n: number) => ({ numRuns: Math.max(1, Math.round(n * SCALE)), endOnFailure: true });

interface ErrorEnvelope {
  detail: { code: unknown; message: unknown; details: unknown; request_id: unknown };
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let session: TestSession;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, {
    env: {
      SIGN_IN_FAILURES_PER_ACCOUNT: "100000",
      SIGN_IN_FAILURES_PER_ADDRESS: "100000",
      RATE_LIMIT_PER_MINUTE: "100000",
    },
  });
  alice = await createTestUser(db.owner, "alice");
  await givePassword(db.owner, alice.id);
  session = await signIn(api, alice.email);
});
after(async () => {
  await api.close();
  await db.drop();
});

function assertAnswered(res: TestResponse, what: string): void {
  assert.ok(res.status < 500, `${what}: ${res.status} ${res.text}`);
  if (res.status >= 400) {
    const body = res.body as ErrorEnvelope;
    assert.equal(typeof body.detail?.code, "string", `${what}: not the envelope: ${res.text}`);
    assert.equal(body.detail.request_id, res.headers.get("x-request-id"), what);
  }
}

const text = fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.string({ unit: "binary", maxLength: 300 }));
const almost = (keys: string[]) =>
  fc.dictionary(fc.oneof(fc.constantFrom(...keys), fc.string()), fc.oneof(text, fc.jsonValue()), { maxKeys: 4 });

describe("malformed input to the app routes", () => {
  it("answers arbitrary JSON bodies below 500 on every route that takes one", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(`${APP_ROUTES_PATH}/session`, `${APP_ROUTES_PATH}/session/link`, `${APP_ROUTES_PATH}/keys`),
        fc.oneof(fc.jsonValue(), almost(["email", "password", "token", "name", "scopes"])),
        async (path, body) => {
          const res = await session.request("POST", path, { body, csrf: true });
          assertAnswered(res, `POST ${path} ${JSON.stringify(body)}`);
        },
      ),
      runs(60),
    );
  });

  it("answers sign-ins with arbitrary strings below 500, never signing in", async () => {
    await fc.assert(
      fc.asyncProperty(text, text, async (email, password) => {
        const res = await api.request("POST", `${APP_ROUTES_PATH}/session`, { body: { email, password } });
        assertAnswered(res, `sign-in ${JSON.stringify({ email, password })}`);
        assert.notEqual(res.status, 200);
      }),
      runs(12),
    );
  });

  it("answers arbitrary key ids, key names and scope lists below 500", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), async (id) => {
        const res = await session.request("DELETE", `${APP_ROUTES_PATH}/keys/${encodeURIComponent(id)}`, {
          csrf: true,
        });
        assertAnswered(res, `DELETE key ${JSON.stringify(id)}`);
        assert.notEqual(res.status, 204);
      }),
      runs(40),
    );
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.option(fc.array(fc.oneof(text, fc.constant("projects:read")))),
        async (name, scopes) => {
          const body = scopes === null ? { name } : { name, scopes };
          const res = await session.request<{ name?: string }>("POST", `${APP_ROUTES_PATH}/keys`, { body, csrf: true });
          assertAnswered(res, `create key ${JSON.stringify(body)}`);
          if (res.status === 201) assert.equal(res.body.name, name, "stored as given");
        },
      ),
      runs(40),
    );
  });

  it("answers the viewer's routes with arbitrary project ids, setup indexes and operations below 500", async () => {
    const id = fc.oneof(fc.string(), fc.uuid());
    await fc.assert(
      fc.asyncProperty(id, fc.string(), fc.option(fc.string()), async (project, setup, after) => {
        const query = after === null ? "" : `?after=${encodeURIComponent(after)}`;
        const base = `${APP_ROUTES_PATH}/projects/${encodeURIComponent(project)}`;
        const stock = await session.request("GET", `${base}/setups/${encodeURIComponent(setup)}/stock${query}`);
        assertAnswered(stock, `stock ${JSON.stringify({ project, setup, after })}`);
        assert.notEqual(stock.status, 200);
        const features = await session.request("GET", `${base}/features`);
        assertAnswered(features, `features ${JSON.stringify(project)}`);
        assert.notEqual(features.status, 200);
      }),
      runs(40),
    );
  });

  it("answers arbitrary cookies and CSRF tokens below 500, with 401 or 403 and nothing done", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string().filter((s) => !/[\r\n\0]/.test(s) && /^[\x20-\x7e]*$/.test(s)),
        fc.string().filter((s) => /^[\x21-\x7e]*$/.test(s)),
        async (cookie, csrf) => {
          const signedOut = await api.request("GET", `${APP_ROUTES_PATH}/session`, {
            headers: { Cookie: `${SESSION_COOKIE}=${cookie}` },
          });
          assertAnswered(signedOut, `cookie ${JSON.stringify(cookie)}`);
          assert.equal(signedOut.status, 401);
          const write = await session.request("POST", "/projects", {
            body: { name: "Fuzz", customer: "C" },
            headers: { "X-CSRF-Token": csrf },
          });
          assertAnswered(write, `csrf ${JSON.stringify(csrf)}`);
          assert.equal(write.status, 403);
        },
      ),
      runs(40),
    );
    const { rows } = await db.owner.query("select 1 from app_public.projects where user_id = $1", [alice.id]);
    assert.equal(rows.length, 0);
  });
});
