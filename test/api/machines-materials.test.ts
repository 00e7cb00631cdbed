/**
 * GET /libraries/machines and /libraries/materials: the seeded archetypes and materials as a
 * user sees them, in the user's order, with private materials shown only to whom they are
 * granted.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { MACHINE_ARCHETYPES } from "../../kernel/machines/archetypes.ts";
import { CUTTING_DATA } from "../../kernel/materials/cutting-data.ts";
import { MATERIALS } from "../../kernel/materials/materials.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { insertOwnMachine } from "../support/machines.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface MachineItem {
  product_id: string;
  control: string;
  travel_mm: number[];
  max_spindle_rpm: number;
  rapid_mm_min: number;
  tool_change_s: number;
  default_mhr: number;
  position: number;
  cost_basis: { purchase_price_eur: number };
  default_workholding: { kind: string; max_opening_mm?: number; clamp_count?: number } | null;
  table_workholding: { kind: string; plate_length_mm?: number; plate_width_mm?: number; clamp_count?: number } | null;
}
interface MaterialItem {
  id: string;
  category: string;
  density_kg_m3: number;
  price_per_kg: number;
  kc1_1_n_mm2: number;
  cutting_data: { tool_family: string; tool_material: string; vc_m_min: number }[];
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
  await db.owner.query(
    "insert into app_public.materials (id, name, category, density_kg_m3, price_per_kg, is_public) values ('inconel-718', 'Inconel 718', 'nickel', 8190, 45, false)",
  );
  await db.owner.query("insert into app_public.user_materials (user_id, material_id) values ($1, 'inconel-718')", [
    bob.id,
  ]);
});
after(async () => {
  await api.close();
  await db.drop();
});

describe("GET /libraries/machines", () => {
  it("lists every archetype assigned to a new user in order, with the figures planning and quoting read", async () => {
    const res = await api.request<{ items: MachineItem[] }>("GET", "/libraries/machines", { key: alice.key });
    assert.equal(res.status, 200);
    const expected = [...MACHINE_ARCHETYPES].sort((a, b) => a.listing_order - b.listing_order);
    assert.deepEqual(
      res.body.items.map((m) => m.product_id),
      expected.map((m) => m.product_id),
    );
    assert.deepEqual(
      res.body.items.map((m) => m.position),
      expected.map((_, i) => i + 1),
    );
    for (const [i, machine] of res.body.items.entries()) {
      const archetype = expected[i]!;
      assert.equal(machine.control, archetype.control);
      assert.deepEqual(machine.travel_mm, [archetype.travel_x_mm, archetype.travel_y_mm, archetype.travel_z_mm]);
      assert.equal(machine.rapid_mm_min, archetype.rapid_mm_min);
      assert.equal(machine.tool_change_s, archetype.tool_change_s);
      assert.equal(machine.default_mhr, archetype.default_mhr);
      assert.equal(machine.cost_basis.purchase_price_eur, archetype.purchase_price_eur);
    }
    assert.deepEqual(
      new Set(res.body.items.map((m) => m.control)),
      new Set(["fanuc", "haas", "heidenhain", "sinumerik", "linuxcnc", "grbl"]),
    );
  });

  it("shows each machine's default workholding (a vise for the VMCs, a fixture plate for the router) and its table, null for a machine without them", async () => {
    await insertOwnMachine(db.owner, bob.id, "bob-own-mill", "Bob only");
    const res = await api.request<{ items: MachineItem[] }>("GET", "/libraries/machines", { key: bob.key });
    assert.equal(res.status, 200, res.text);
    const byId = new Map(res.body.items.map((m) => [m.product_id, m.default_workholding]));
    assert.equal(byId.get("vmc-850-fanuc")?.kind, "vise");
    assert.equal(byId.get("vmc-850-fanuc")?.max_opening_mm, 225);
    assert.equal(byId.get("router-450-grbl")?.kind, "fixture_plate");
    assert.equal(byId.get("router-450-grbl")?.clamp_count, 4);
    assert.equal(byId.get("bob-own-mill"), null);
    for (const machine of res.body.items.filter((m) => m.product_id !== "bob-own-mill"))
      assert.notEqual(machine.default_workholding, null, machine.product_id);
    // the table, where the default cannot hold a setup
    const tables = new Map(res.body.items.map((m) => [m.product_id, m.table_workholding]));
    const vmc = tables.get("vmc-850-fanuc");
    assert.deepEqual(
      [vmc?.kind, vmc?.plate_length_mm, vmc?.plate_width_mm, vmc?.clamp_count],
      ["fixture_plate", 1000, 500, 8],
    );
    assert.equal(tables.get("bob-own-mill"), null);
  });

  it("gives a new project the first machine of the list", async () => {
    const machines = await api.request<{ items: MachineItem[] }>("GET", "/libraries/machines", { key: alice.key });
    const project = await api.request<{ product_id: string }>("POST", "/projects", {
      key: alice.key,
      body: { name: "P", customer: "C" },
    });
    assert.equal(project.body.product_id, machines.body.items[0]!.product_id);
  });

  it("refuses a key without libraries:read, and a query parameter it does not know", async () => {
    const key = await alice.keyWith(["equipment:read", "projects:read"]);
    const refused = await api.request<{ detail: { code: string } }>("GET", "/libraries/machines", { key });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.detail.code, "insufficient_scope");
    const unknown = await api.request<{ detail: { code: string } }>("GET", "/libraries/machines?limit=5", {
      key: alice.key,
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.detail.code, "invalid_parameter");
  });
});

describe("GET /libraries/materials", () => {
  it("lists the seeded materials with density, price and cutting data for every tool family", async () => {
    const res = await api.request<{ items: MaterialItem[] }>("GET", "/libraries/materials", { key: alice.key });
    assert.equal(res.status, 200);
    assert.deepEqual(new Set(res.body.items.map((m) => m.id)), new Set(MATERIALS.map((m) => m.id)));
    const aluminium = res.body.items.find((m) => m.id === "aluminium-6061")!;
    const seeded = MATERIALS.find((m) => m.id === "aluminium-6061")!;
    assert.equal(aluminium.density_kg_m3, seeded.density_kg_m3);
    assert.equal(aluminium.price_per_kg, seeded.price_per_kg);
    assert.equal(aluminium.kc1_1_n_mm2, seeded.kc1_1_n_mm2);
    assert.deepEqual(
      aluminium.cutting_data,
      CUTTING_DATA.filter((entry) => entry.material_id === "aluminium-6061"),
    );
  });

  it("shows a private material only to the user it is granted to", async () => {
    const bobs = await api.request<{ items: MaterialItem[] }>("GET", "/libraries/materials", { key: bob.key });
    assert.ok(bobs.body.items.some((m) => m.id === "inconel-718"));
    const alices = await api.request<{ items: MaterialItem[] }>("GET", "/libraries/materials", { key: alice.key });
    assert.ok(!alices.body.items.some((m) => m.id === "inconel-718"));
  });

  it("filters by category, and refuses a category that is not a word", async () => {
    const steels = await api.request<{ items: MaterialItem[] }>("GET", "/libraries/materials?category=steel", {
      key: alice.key,
    });
    assert.deepEqual(steels.body.items.map((m) => m.id).sort(), ["steel-42crmo4", "steel-c45"]);
    const none = await api.request<{ items: MaterialItem[] }>("GET", "/libraries/materials?category=unobtainium", {
      key: alice.key,
    });
    assert.deepEqual(none.body.items, []);
    const bad = await api.request<{ detail: { code: string } }>("GET", "/libraries/materials?category=%27%3B%20drop", {
      key: alice.key,
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.detail.code, "invalid_parameter");
  });
});
