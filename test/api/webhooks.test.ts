/**
 * The webhook routes: what registering answers (the secret, only there), listing, changing,
 * revoking, rotating, the delivery log and redelivery, and the inputs they refuse. Scopes and
 * other users' ids for every route: route-table.test.ts. Delivery: test/webhooks/.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface ErrorBody {
  detail: { code: string; details: { fields?: { field: string; code: string }[] } };
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
});
after(async () => {
  await api.close();
  await db.drop();
});

describe("webhook endpoints", () => {
  it("registers an endpoint and answers id, url, event_types, enabled, created_at and the secret, which no read shows again", async () => {
    const res = await api.request<Record<string, unknown>>("POST", "/webhooks", {
      key: alice.key,
      body: { url: "http://127.0.0.1:8123/hooks", event_types: ["task.succeeded", "quote.ready"] },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ["created_at", "enabled", "event_types", "id", "secret", "url"]);
    assert.match(res.body.secret as string, /^whsec_[0-9a-f]{64}$/);
    assert.deepEqual(res.body.event_types, ["task.succeeded", "quote.ready"]);
    assert.equal(res.body.enabled, true);
    const list = await api.request<{ items: Record<string, unknown>[] }>("GET", "/webhooks", { key: alice.key });
    assert.equal(list.status, 200);
    assert.equal(list.body.items.length, 1);
    assert.ok(!list.text.includes(res.body.secret as string));
    assert.ok(!("secret" in list.body.items[0]!));
    assert.deepEqual((await api.request<{ items: unknown[] }>("GET", "/webhooks", { key: bob.key })).body.items, []);
    const empty = await api.request<{ event_types: string[] }>("POST", "/webhooks", {
      key: alice.key,
      body: { url: "http://127.0.0.1:8123/all" },
    });
    assert.deepEqual(empty.body.event_types, [], "no event_types: all events");
  });

  it("refuses a bad url, a private or metadata address, an unknown or repeated event type and unknown fields", async () => {
    const cases: [unknown, string, string][] = [
      [{ url: "not a url" }, "body.url", "url_not_allowed"],
      [{ url: "ftp://example.com/x" }, "body.url", "url_not_allowed"],
      [{ url: "https://user:pw@example.com/x" }, "body.url", "url_not_allowed"],
      [{ url: "http://169.254.169.254/latest/meta-data" }, "body.url", "url_not_allowed"],
      [{ url: "http://10.0.0.5/hooks" }, "body.url", "url_not_allowed"],
      [{ url: "http://[fe80::1]/hooks" }, "body.url", "url_not_allowed"],
      [{ url: "https://example.com/x", event_types: ["task.exploded"] }, "body.event_types.0", "invalid_value"],
      [{ url: "https://example.com/x", event_types: ["task.failed", "task.failed"] }, "body.event_types", "custom"],
      [{ url: "https://example.com/x", secret: "mine" }, "body.secret", "unknown_field"],
      [{}, "body.url", "invalid_type"],
    ];
    for (const [body, field, code] of cases) {
      const res = await api.request<ErrorBody>("POST", "/webhooks", { key: alice.key, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.detail.code, "invalid_parameter");
      assert.deepEqual(
        res.body.detail.details.fields?.map((f) => [f.field, f.code]),
        [[field, code]],
        JSON.stringify(body),
      );
    }
  });

  it("requires https and refuses loopback in production mode unless configured", async () => {
    const prod = await startTestApi(db, { env: { NODE_ENV: "production" } });
    try {
      for (const url of ["http://example.com/hooks", "https://127.0.0.1/hooks", "https://localhost/hooks"]) {
        const res = await prod.request<ErrorBody>("POST", "/webhooks", { key: alice.key, body: { url } });
        assert.equal(res.status, 400, url);
      }
      assert.equal(
        (await prod.request("POST", "/webhooks", { key: alice.key, body: { url: "https://example.com/hooks" } }))
          .status,
        201,
      );
    } finally {
      await prod.close();
    }
    const allowed = await startTestApi(db, {
      env: { NODE_ENV: "production", WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOWED_ADDRESS_CLASSES: "private" },
    });
    try {
      assert.equal(
        (await allowed.request("POST", "/webhooks", { key: alice.key, body: { url: "http://10.1.2.3/hooks" } })).status,
        201,
      );
    } finally {
      await allowed.close();
    }
  });

  it("changes url, event_types and enabled, refuses an empty patch, and revokes", async () => {
    const created = await api.request<{ id: string }>("POST", "/webhooks", {
      key: alice.key,
      body: { url: "http://127.0.0.1:8123/a" },
    });
    const id = created.body.id;
    const patched = await api.request<{ url: string; event_types: string[]; enabled: boolean }>(
      "PATCH",
      `/webhooks/${id}`,
      {
        key: alice.key,
        body: { url: "http://127.0.0.1:8123/b", event_types: ["task.failed"], enabled: false },
      },
    );
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(
      [patched.body.url, patched.body.event_types, patched.body.enabled],
      ["http://127.0.0.1:8123/b", ["task.failed"], false],
    );
    assert.equal((await api.request("PATCH", `/webhooks/${id}`, { key: alice.key, body: {} })).status, 400);
    assert.equal(
      (await api.request("PATCH", `/webhooks/${id}`, { key: alice.key, body: { url: "http://192.168.1.1/" } })).status,
      400,
    );
    assert.equal((await api.request("DELETE", `/webhooks/${id}`, { key: alice.key })).status, 204);
    assert.equal((await api.request("DELETE", `/webhooks/${id}`, { key: alice.key })).status, 404);
    assert.equal(
      (await api.request("PATCH", `/webhooks/${id}`, { key: alice.key, body: { enabled: true } })).status,
      404,
    );
    assert.equal((await api.request("POST", `/webhooks/${id}/rotate-secret`, { key: alice.key })).status, 404);
  });

  it("rotates the secret: a new one is answered, the old one signs beside it for 24 hours", async () => {
    const created = await api.request<{ id: string; secret: string }>("POST", "/webhooks", {
      key: alice.key,
      body: { url: "http://127.0.0.1:8123/r" },
    });
    const rotated = await api.request<{ secret: string; previous_secret_expires_at: string }>(
      "POST",
      `/webhooks/${created.body.id}/rotate-secret`,
      { key: alice.key },
    );
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.secret, created.body.secret);
    const hours = (Date.parse(rotated.body.previous_secret_expires_at) - Date.now()) / 3600_000;
    assert.ok(hours > 23.9 && hours <= 24, String(hours));
    const { rows } = await db.owner.query<{ secret: string; expires_at: Date | null }>(
      "select secret, expires_at from app_private.webhook_secrets where endpoint_id = $1 order by id",
      [created.body.id],
    );
    assert.deepEqual(
      rows.map((r) => [r.secret, r.expires_at !== null]),
      [
        [created.body.secret, true],
        [rotated.body.secret, false],
      ],
    );
  });

  it("answers the delivery log page by page, and refuses to redeliver a pending delivery", async () => {
    const created = await api.request<{ id: string }>("POST", "/webhooks", {
      key: alice.key,
      body: { url: "http://127.0.0.1:8123/log" },
    });
    const project = await api.request<{ id: string }>("POST", "/projects", {
      key: alice.key,
      body: { name: "Log", customer: "X" },
    });
    const { rows } = await db.owner.query<{ id: string }>(
      "insert into app_public.tasks (user_id, project_id, task_name, worker_task) values ($1, $2, 'test.log', 'test_idle') returning id",
      [alice.id, project.body.id],
    );
    await db.owner.query("update app_public.tasks set status = 'running', progress = 0.25 where id = $1", [
      rows[0]!.id,
    ]);
    await db.owner.query("update app_public.tasks set status = 'failed' where id = $1", [rows[0]!.id]);
    const page1 = await api.request<{
      items: { id: string; event_type: string; status: string; attempts: unknown[] }[];
      next_cursor: string;
    }>("GET", `/webhooks/${created.body.id}/deliveries?limit=2`, { key: alice.key });
    assert.equal(page1.status, 200);
    assert.deepEqual(
      page1.body.items.map((d) => d.event_type),
      ["task.failed", "task.progress"],
    );
    assert.deepEqual(page1.body.items[0]!.attempts, []);
    const page2 = await api.request<{ items: { event_type: string }[]; next_cursor: string | null }>(
      "GET",
      `/webhooks/${created.body.id}/deliveries?limit=2&cursor=${page1.body.next_cursor}`,
      { key: alice.key },
    );
    assert.deepEqual(
      page2.body.items.map((d) => d.event_type),
      ["task.started"],
    );
    assert.equal(page2.body.next_cursor, null);
    const redeliver = await api.request<ErrorBody>(
      "POST",
      `/webhooks/${created.body.id}/deliveries/${page1.body.items[0]!.id}/redeliver`,
      { key: alice.key },
    );
    assert.equal(redeliver.status, 409);
    assert.equal(redeliver.body.detail.code, "delivery_pending");
  });
});
