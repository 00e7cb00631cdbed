import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { saveWorkpiece } from "../../db/queries/workpieces.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { asUser } from "../support/as-user.ts";
import { partC } from "../support/fixture-workpiece.ts";
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
  warnings: { code: string; message: string; sent?: string; material_id?: string; axis?: string; setups?: string[] }[];
}

interface ErrorBody {
  detail: {
    code: string;
    message: string;
    details: { fields?: { field: string; code: string }[]; nearest?: string[] };
  };
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
    const res = await api.request<Project>("POST", "/projects", {
      key: alice.key,
      body: { name: "Bracket", customer: "ACME" },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.name, "Bracket");
    assert.equal(res.body.product_id, "vmc-850-fanuc");
    const { rows } = await db.owner.query(
      "select id from app_public.equipment_libraries where user_id = $1 and is_default",
      [alice.id],
    );
    assert.equal(res.body.library_id, rows[0].id);
    const quote = await db.owner.query("select overhead_percentage from app_public.quote_jobs where project_id = $1", [
      res.body.id,
    ]);
    assert.equal(quote.rowCount, 1, "the quote job is created with the project");
  });

  it("changes only the fields a PATCH sends", async () => {
    const created = await api.request<Project>("POST", "/projects", {
      key: alice.key,
      body: { name: "A", customer: "C", notes: "keep" },
    });
    const patched = await api.request<Project>("PATCH", `/projects/${created.body.id}`, {
      key: alice.key,
      body: { name: "B" },
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.name, "B");
    assert.equal(patched.body.customer, "C");
    assert.equal(patched.body.notes, "keep");
  });

  it("answers 404 to user B for every id of user A", async () => {
    const created = await api.request<Project>("POST", "/projects", {
      key: alice.key,
      body: { name: "Secret", customer: "A" },
    });
    const id = created.body.id;
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "stolen" }],
      ["DELETE", undefined],
    ] as const) {
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
    const created = await api.request<Project>("POST", "/projects", {
      key: alice.key,
      body: { name: "Gone", customer: "A" },
    });
    const del = await api.request("DELETE", `/projects/${created.body.id}`, { key: alice.key });
    assert.equal(del.status, 204);
    assert.equal((await api.request("GET", `/projects/${created.body.id}`, { key: alice.key })).status, 404);
    const { rows } = await db.owner.query("select task_identifier from graphile_worker.jobs where key = $1", [
      `purge_project:${created.body.id}`,
    ]);
    assert.equal(rows[0]?.task_identifier, "purge_project");
  });
});

describe("requests that need not fail", () => {
  it("creates a project without a customer: customer is empty, and nothing else changes", async () => {
    const res = await api.request<Project>("POST", "/projects", { key: alice.key, body: { name: "No customer" } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.customer, "");
    assert.deepEqual(res.body.warnings, []);
    const sent = await api.request<Project>("POST", "/projects", {
      key: alice.key,
      body: { name: "Named", customer: "ACME" },
    });
    assert.equal(sent.body.customer, "ACME", "a customer sent is kept");
  });

  it("stores a material named by an alias as its id, and says so in a material_alias warning", async () => {
    for (const [sent, id] of [
      ["AISI 304", "stainless-1.4301"],
      ["aluminum-6061", "aluminium-6061"],
      ["EN AW-7075", "aluminium-7075"],
      ["1.0503", "steel-c45"],
    ] as const) {
      const res = await api.request<Project>("POST", "/projects", {
        key: alice.key,
        body: { name: "Alias", customer: "A", material_id: sent },
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.material_id, id, sent);
      assert.deepEqual(
        res.body.warnings.map((w) => [w.code, w.sent, w.material_id]),
        [["material_alias", sent, id]],
      );
      const stored = await db.owner.query("select material_id from app_public.projects where id = $1", [res.body.id]);
      assert.equal(stored.rows[0].material_id, id);
    }
    const created = await api.request<Project>("POST", "/projects", {
      key: alice.key,
      body: { name: "Exact", customer: "A", material_id: "steel-c45" },
    });
    assert.deepEqual(created.body.warnings, [], "an id as it is: no warning");
    const patched = await api.request<Project>("PATCH", `/projects/${created.body.id}`, {
      key: alice.key,
      body: { material_id: "X5CrNi18-10" },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.material_id, "stainless-1.4301");
    assert.equal(patched.body.warnings[0]?.code, "material_alias");
    const cleared = await api.request<Project>("PATCH", `/projects/${created.body.id}`, {
      key: alice.key,
      body: { material_id: null },
    });
    assert.equal(cleared.body.material_id, null);
  });

  it("refuses a material no alias names with 400 unknown_reference and the nearest ids, storing nothing", async () => {
    const refused = await api.request<ErrorBody>("POST", "/projects", {
      key: alice.key,
      body: { name: "Typo", customer: "A", material_id: "alumnium-6061" },
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.detail.code, "invalid_parameter");
    assert.deepEqual(
      refused.body.detail.details.fields?.map((f) => [f.field, f.code]),
      [["body.material_id", "unknown_reference"]],
    );
    assert.equal(refused.body.detail.details.nearest?.[0], "aluminium-6061");
    assert.equal(refused.body.detail.details.nearest?.length, 3);
    const count = await db.owner.query("select count(*)::int as n from app_public.projects where name = 'Typo'");
    assert.equal(count.rows[0].n, 0);

    const created = await api.request<Project>("POST", "/projects", {
      key: alice.key,
      body: { name: "Kept", customer: "A", material_id: "steel-c45" },
    });
    for (const [material_id, code] of [
      ["unobtainium", "unknown_reference"],
      ["aluminium", "unknown_reference"],
      ["", "too_small"],
      ["x".repeat(101), "too_big"],
      [42, "invalid_type"],
    ] as const) {
      const res = await api.request<ErrorBody>("PATCH", `/projects/${created.body.id}`, {
        key: alice.key,
        body: { material_id, name: "Changed" },
      });
      assert.equal(res.status, 400, JSON.stringify(material_id));
      assert.deepEqual(
        res.body.detail.details.fields?.map((f) => f.code),
        [code],
        JSON.stringify(material_id),
      );
    }
    const kept = await api.request<Project>("GET", `/projects/${created.body.id}`, { key: alice.key });
    assert.deepEqual([kept.body.name, kept.body.material_id], ["Kept", "steel-c45"]);
  });

  it("resolves only among the user's materials: another user's granted material is unknown to bob, and his alias of a public one is his own", async () => {
    await db.owner.query(
      `insert into app_public.materials (id, name, category, density_kg_m3, price_per_kg, is_public, designations)
       values ('alice-special-alloy', 'Alice special alloy', 'steel', 7800, 3, false, '["AS-1"]')`,
    );
    await db.owner.query(
      "insert into app_public.user_materials (user_id, material_id) values ($1, 'alice-special-alloy')",
      [alice.id],
    );
    const hers = await api.request<Project>("POST", "/projects", {
      key: alice.key,
      body: { name: "Hers", customer: "A", material_id: "AS-1" },
    });
    assert.equal(hers.status, 201, hers.text);
    assert.equal(hers.body.material_id, "alice-special-alloy");
    const his = await api.request<ErrorBody>("POST", "/projects", {
      key: bob.key,
      body: { name: "His", customer: "B", material_id: "alice-special-alloy" },
    });
    assert.equal(his.status, 400);
    assert.ok(!his.body.detail.details.nearest?.includes("alice-special-alloy"), "bob is not told of alice's material");
  });

  it("answers 404 to another user's PATCH with an alias, 403 without projects:write, and changes nothing", async () => {
    const created = await api.request<Project>("POST", "/projects", {
      key: alice.key,
      body: { name: "Guarded", customer: "A", material_id: "steel-c45" },
    });
    const foreign = await api.request<ErrorBody>("PATCH", `/projects/${created.body.id}`, {
      key: bob.key,
      body: { material_id: "AISI 304" },
    });
    assert.equal(foreign.status, 404);
    const readOnly = await alice.keyWith(["projects:read"]);
    const scoped = await api.request<ErrorBody>("PATCH", `/projects/${created.body.id}`, {
      key: readOnly,
      body: { material_id: "AISI 304" },
    });
    assert.equal(scoped.status, 403);
    assert.equal(scoped.body.detail.code, "insufficient_scope");
    const post = await api.request<ErrorBody>("POST", "/projects", {
      key: readOnly,
      body: { name: "No", material_id: "AISI 304" },
    });
    assert.equal(post.status, 403);
    const kept = await api.request<Project>("GET", `/projects/${created.body.id}`, { key: alice.key });
    assert.equal(kept.body.material_id, "steel-c45");
  });

  it("changes the machine to one the stock does not fit in some setups with a warning naming the axis and the setups", async () => {
    const created = await api.request<Project>("POST", "/projects", {
      key: alice.key,
      body: { name: "Long stock", material_id: "aluminium-6061" },
    });
    const projectId = created.body.id;
    const part = await partC();
    await asUser(api.pool, alice, (client) =>
      saveWorkpiece(client, projectId, part.ingested, part.original, part.glb, part.png),
    );
    // partC is 85.5 mm along X: 107.5 mm of stock is more than the router's 100 mm of Z travel from +X and -X
    const offsets = { minus_x: 2, plus_x: 20, minus_y: 2, plus_y: 2, minus_z: 0, plus_z: 5 };
    const stock = await api.request<{ warnings: unknown[] }>("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: alice.key,
      body: offsets,
    });
    assert.deepEqual(stock.body.warnings, [], "the VMC 850 takes it");
    const router = await api.request<Project>("PATCH", `/projects/${projectId}`, {
      key: alice.key,
      body: { product_id: "router-450-grbl" },
    });
    assert.equal(router.status, 200, router.text);
    assert.equal(router.body.product_id, "router-450-grbl", "changed as sent");
    assert.deepEqual(
      router.body.warnings.map((w) => [w.code, w.axis, w.setups]),
      [["stock_exceeds_travel", "Z", ["+X", "-X"]]],
    );
    assert.match(router.body.warnings[0]!.message, /Z travel is 100 mm/);
    const back = await api.request<Project>("PATCH", `/projects/${projectId}`, {
      key: alice.key,
      body: { product_id: "vmc-850-fanuc" },
    });
    assert.deepEqual(back.body.warnings, []);
    const renamed = await api.request<Project>("PATCH", `/projects/${projectId}`, {
      key: alice.key,
      body: { name: "Renamed" },
    });
    assert.deepEqual(renamed.body.warnings, [], "the machine is checked when it is sent");
  });
});
