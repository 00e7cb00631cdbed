import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface Project {
  id: string;
  name: string;
  customer: string;
  product_id: string;
  material_id: string | null;
  library_id: string | null;
  notes: string | null;
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
});
after(async () => {
  await api.close();
  await db.drop();
});

describe("projects", () => {
  it("creates a project with the user's first machine and default library", async () => {
    const res = await api.request<Project>("POST", "/projects", { key: alice.key, body: { name: "Bracket", customer: "ACME" } });
    assert.equal(res.status, 201);
    assert.equal(res.body.name, "Bracket");
    assert.equal(res.body.product_id, "vmc-850-fanuc");
    const { rows } = await db.owner.query("select id from app_public.equipment_libraries where user_id = $1 and is_default", [alice.id]);
    assert.equal(res.body.library_id, rows[0].id);
    const quote = await db.owner.query("select overhead_percentage from app_public.quote_jobs where project_id = $1", [res.body.id]);
    assert.equal(quote.rowCount, 1, "the quote job is created with the project");
  });

  it("changes only the fields a PATCH sends", async () => {
    const created = await api.request<Project>("POST", "/projects", { key: alice.key, body: { name: "A", customer: "C", notes: "keep" } });
    const patched = await api.request<Project>("PATCH", `/projects/${created.body.id}`, { key: alice.key, body: { name: "B" } });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.name, "B");
    assert.equal(patched.body.customer, "C");
    assert.equal(patched.body.notes, "keep");
  });

  it("answers 404 to user B for every id of user A", async () => {
    const created = await api.request<Project>("POST", "/projects", { key: alice.key, body: { name: "Secret", customer: "A" } });
    const id = created.body.id;
    for (const [method, body] of [["GET", undefined], ["PATCH", { name: "stolen" }], ["DELETE", undefined]] as const) {
      const res = await api.request<{ detail: { code: string } }>(method, `/projects/${id}`, { key: bob.key, body });
      assert.equal(res.status, 404, `${method} by another user`);
      assert.equal(res.body.detail.code, "not_found");
    }
    const list = await api.request<{ items: Project[] }>("GET", "/projects", { key: bob.key });
    assert.ok(!list.body.items.some((p) => p.id === id));
    const still = await api.request<Project>("GET", `/projects/${id}`, { key: alice.key });
    assert.equal(still.body.name, "Secret");
  });

  it("hides a deleted project from every read at once and purges it in the background", async () => {
    const created = await api.request<Project>("POST", "/projects", { key: alice.key, body: { name: "Gone", customer: "A" } });
    const del = await api.request("DELETE", `/projects/${created.body.id}`, { key: alice.key });
    assert.equal(del.status, 204);
    assert.equal((await api.request("GET", `/projects/${created.body.id}`, { key: alice.key })).status, 404);
    const { rows } = await db.owner.query("select task_identifier from graphile_worker.jobs where key = $1", [`purge_project:${created.body.id}`]);
    assert.equal(rows[0]?.task_identifier, "purge_project");
  });
});
