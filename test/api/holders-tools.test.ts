/**
 * The standalone holder and tool libraries over HTTP, against a real PostgreSQL: CRUD, the
 * tool list's filters, POST /libraries/tools/validate, and sync_assemblies keeping the
 * assemblies that hold an item in step. Items are entries of the standard catalogue range
 * (kernel/tools/catalogue) given fresh uuids.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { Assembly, AssemblyComponent } from "../../kernel/tools/assembly.ts";
import { generateStandardRange, type CatalogueEntry } from "../../kernel/tools/catalogue/standard-range.ts";
import type { Holder } from "../../kernel/tools/holder.ts";
import type { Tool } from "../../kernel/tools/tool.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown> };
}

interface FieldsError {
  detail: { code: string; details: { fields: { field: string; code: string; message: string }[] } };
}

interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

type StoredHolder = Holder & { uuid: string };
type StoredTool = Tool & { uuid: string };

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
let range: CatalogueEntry[];

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  range = generateStandardRange();
});
after(async () => {
  await api.close();
  await db.drop();
});

// ---------------------------------------------------------------------------------------------
// Fixtures

function entryOf(type: string, index = 0): CatalogueEntry {
  const entry = range.filter((e) => e.tool_type === type)[index];
  assert.ok(entry, `the standard range has ${type} number ${index}`);
  return entry;
}

/** A catalogue tool with a fresh uuid. */
function freshTool(type = "CentreCuttingEndMill", index = 0): StoredTool {
  const last = entryOf(type, index).assembly.components.at(-1);
  assert.ok(last?.component_type === "parametric_cutting_tool");
  return { ...structuredClone(last.parametric_cutting_tool), uuid: randomUUID() };
}

/** The first catalogue tool of a type that matches, with a fresh uuid. */
function freshToolWhere(type: string, matches: (tool: Tool) => boolean): StoredTool {
  for (const entry of range) {
    const last = entry.assembly.components.at(-1);
    if (
      entry.tool_type === type &&
      last?.component_type === "parametric_cutting_tool" &&
      matches(last.parametric_cutting_tool)
    ) {
      return { ...structuredClone(last.parametric_cutting_tool), uuid: randomUUID() };
    }
  }
  throw new Error(`no ${type} in the standard range matches`);
}

/** A catalogue holder with a fresh uuid. */
function freshHolder(type = "CentreCuttingEndMill", index = 0): StoredHolder {
  const first = entryOf(type, index).assembly.components[0];
  assert.ok(first?.component_type === "adaptive_item");
  return { ...structuredClone(first.adaptive_item), uuid: randomUUID() };
}

function assemblyOf(name: string, holder: StoredHolder | null, tool: StoredTool | null): Assembly {
  const components: AssemblyComponent[] = [];
  if (holder) components.push({ component_type: "adaptive_item", adaptive_item: structuredClone(holder) });
  if (tool)
    components.push({ component_type: "parametric_cutting_tool", parametric_cutting_tool: structuredClone(tool) });
  return { uuid: randomUUID(), name, components };
}

async function createLibrary(user: TestUser, assemblies: Assembly[]): Promise<string> {
  const res = await api.request<{ id: string }>("POST", "/libraries/equipment", {
    key: user.key,
    body: { library: { name: "Cell", assemblies } },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

async function createTool(user: TestUser, tool: Partial<StoredTool>): Promise<StoredTool> {
  const res = await api.request<StoredTool>("POST", "/libraries/tools", { key: user.key, body: tool });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function createHolder(user: TestUser, holder: Partial<StoredHolder>): Promise<StoredHolder> {
  const res = await api.request<StoredHolder>("POST", "/libraries/holders", { key: user.key, body: holder });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function storedAssembly(
  libraryId: string,
  id: string,
): Promise<{ position: number; name: string; body: Assembly } | undefined> {
  const { rows } = await db.owner.query(
    "select position, name, body from app_public.library_assemblies where library_id = $1 and id = $2",
    [libraryId, id],
  );
  return rows[0];
}

async function storedTool(
  user: TestUser,
  id: string,
): Promise<{ body: StoredTool; name: string; tool_type: string; diameter_mm: number } | undefined> {
  const { rows } = await db.owner.query(
    "select body, name, tool_type, diameter_mm from app_public.tools where user_id = $1 and id = $2",
    [user.id, id],
  );
  return rows[0];
}

async function storedHolder(
  user: TestUser,
  id: string,
): Promise<{ body: StoredHolder; name: string; stacking_group: string } | undefined> {
  const { rows } = await db.owner.query(
    "select body, name, stacking_group from app_public.holders where user_id = $1 and id = $2",
    [user.id, id],
  );
  return rows[0];
}

function fieldsOf(res: { body: unknown }): { field: string; code: string }[] {
  return byField((res.body as FieldsError).detail.details.fields.map(({ field, code }) => ({ field, code })));
}

function byField(fields: { field: string; code: string }[]): { field: string; code: string }[] {
  return [...fields].sort((a, b) => `${a.field} ${a.code}`.localeCompare(`${b.field} ${b.code}`));
}

function toolIn(assembly: Assembly): StoredTool {
  const last = assembly.components.at(-1);
  assert.ok(last?.component_type === "parametric_cutting_tool");
  return last.parametric_cutting_tool as StoredTool;
}

// ---------------------------------------------------------------------------------------------

describe("holders", () => {
  it("creates, reads, lists, changes and deletes a holder", async () => {
    const { uuid: _unused, ...withoutUuid } = freshHolder("Drill", 10);
    const created = await createHolder(alice, withoutUuid);
    assert.match(
      created.uuid,
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      "a uuid is generated",
    );
    assert.deepEqual(created, { ...withoutUuid, uuid: created.uuid });
    assert.deepEqual((await storedHolder(alice, created.uuid))?.body, created);

    const read = await api.request<StoredHolder>("GET", `/libraries/holders/${created.uuid}`, { key: alice.key });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, created);

    const second = await createHolder(alice, freshHolder("FaceMill"));
    const list = await api.request<Page<StoredHolder>>("GET", "/libraries/holders?limit=1", { key: alice.key });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.items.map((h) => h.uuid),
      [second.uuid],
      "newest first",
    );
    const next = await api.request<Page<StoredHolder>>(
      "GET",
      `/libraries/holders?limit=1&cursor=${list.body.next_cursor}`,
      { key: alice.key },
    );
    assert.deepEqual(
      next.body.items.map((h) => h.uuid),
      [created.uuid],
    );

    const patched = await api.request<StoredHolder>("PATCH", `/libraries/holders/${created.uuid}`, {
      key: alice.key,
      body: { name: "Collet chuck, bay 3", description: null, clamping_range_mm: { max: 9 } },
    });
    assert.equal(patched.status, 200, patched.text);
    const { description: _gone, ...rest } = created;
    const expected = {
      ...rest,
      name: "Collet chuck, bay 3",
      clamping_range_mm: { ...created.clamping_range_mm!, max: 9 },
    };
    assert.deepEqual(patched.body, expected, "a merge patch: null removes, objects merge, the rest stays");
    assert.deepEqual(await storedHolder(alice, created.uuid), {
      body: expected,
      name: "Collet chuck, bay 3",
      stacking_group: "Holder",
    });

    assert.equal((await api.request("DELETE", `/libraries/holders/${created.uuid}`, { key: alice.key })).status, 204);
    assert.equal(await storedHolder(alice, created.uuid), undefined);
    assert.equal((await api.request("GET", `/libraries/holders/${created.uuid}`, { key: alice.key })).status, 404);
    assert.equal((await api.request("DELETE", `/libraries/holders/${created.uuid}`, { key: alice.key })).status, 404);
  });

  it("refuses a holder uuid the user has already with 409 holder_exists, whatever its case", async () => {
    const holder = await createHolder(alice, freshHolder());
    const again = await api.request<ErrorBody>("POST", "/libraries/holders", {
      key: alice.key,
      body: { ...holder, uuid: holder.uuid.toUpperCase(), name: "Twin" },
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.detail.code, "holder_exists");
    assert.equal((await storedHolder(alice, holder.uuid))?.name, holder.name);
    assert.equal(
      (await api.request("POST", "/libraries/holders", { key: bob.key, body: holder })).status,
      201,
      "another user may hold the same uuid",
    );
  });

  it("PATCH with sync (the default) changes every assembly holding the holder, in place; without sync only the entry", async () => {
    const holder = await createHolder(alice, freshHolder("CentreCuttingEndMill", 20));
    const first = assemblyOf("A", holder, freshTool("CentreCuttingEndMill", 20));
    const second = assemblyOf("B", holder, freshTool("CentreCuttingEndMill", 21));
    const lone = assemblyOf("C", null, freshTool("CentreCuttingEndMill", 22));
    const libA = await createLibrary(alice, [lone, first]);
    const libB = await createLibrary(alice, [second]);

    const synced = await api.request<StoredHolder>("PATCH", `/libraries/holders/${holder.uuid}`, {
      key: alice.key,
      body: { name: "Renamed chuck" },
    });
    assert.equal(synced.status, 200, synced.text);
    for (const [lib, assembly, position] of [
      [libA, first, 1],
      [libB, second, 0],
    ] as const) {
      const stored = await storedAssembly(lib, assembly.uuid);
      assert.equal(stored?.position, position, "the assembly keeps its slot");
      assert.deepEqual(
        stored?.body.components,
        [{ component_type: "adaptive_item", adaptive_item: synced.body }, assembly.components[1]],
        "the holder's copy was replaced in place, the tool untouched",
      );
    }
    assert.deepEqual(
      (await storedAssembly(libA, lone.uuid))?.body,
      lone,
      "an assembly without the holder is untouched",
    );

    const unsynced = await api.request<StoredHolder>(
      "PATCH",
      `/libraries/holders/${holder.uuid}?sync_assemblies=false`,
      { key: alice.key, body: { name: "Entry only" } },
    );
    assert.equal(unsynced.status, 200);
    assert.equal((await storedHolder(alice, holder.uuid))?.name, "Entry only");
    const stored = await storedAssembly(libA, first.uuid);
    assert.equal(
      (stored?.body.components[0] as { adaptive_item: StoredHolder } | undefined)?.adaptive_item.name,
      "Renamed chuck",
      "the assembly keeps its copy",
    );
  });

  it("refuses with 409 assembly_invalid a holder change that would break an assembly holding it, and changes nothing", async () => {
    const holder = await createHolder(alice, freshHolder("CentreCuttingEndMill", 30));
    const tool = freshTool("CentreCuttingEndMill", 30);
    const assembly = assemblyOf("Fits today", holder, tool);
    const lib = await createLibrary(alice, [assembly]);
    const shank = tool.tool_parameters.ShankDiameter!;
    const res = await api.request<ErrorBody>("PATCH", `/libraries/holders/${holder.uuid}`, {
      key: alice.key,
      body: { clamping_range_mm: { min: shank + 1, max: shank + 5 } },
    });
    assert.equal(res.status, 409);
    assert.equal(res.body.detail.code, "assembly_invalid");
    assert.deepEqual(res.body.detail.details.assemblies, [
      {
        library_id: lib,
        assembly_id: assembly.uuid,
        name: "Fits today",
        fields: [
          {
            field: "components.1.parametric_cutting_tool.tool_parameters.ShankDiameter",
            code: "shank_fits_holder",
            message: `a ${shank} mm shank does not fit components.0 (clamps ${shank + 1}..${shank + 5} mm)`,
          },
        ],
      },
    ]);
    assert.deepEqual((await storedHolder(alice, holder.uuid))?.body, holder, "the entry is unchanged");
    assert.deepEqual((await storedAssembly(lib, assembly.uuid))?.body, assembly, "the assembly is unchanged");
  });

  it("DELETE with sync (the default) removes the holder from its assemblies", async () => {
    const holder = await createHolder(alice, freshHolder("Drill", 50));
    const assembly = assemblyOf("Drill in chuck", holder, freshTool("Drill", 50));
    const lib = await createLibrary(alice, [assembly]);
    assert.equal((await api.request("DELETE", `/libraries/holders/${holder.uuid}`, { key: alice.key })).status, 204);
    assert.equal(await storedHolder(alice, holder.uuid), undefined);
    assert.deepEqual((await storedAssembly(lib, assembly.uuid))?.body.components, [assembly.components[1]]);
  });
});

describe("tools", () => {
  it("creates, reads, changes and deletes a tool", async () => {
    const tool = freshTool("BullNoseEndMill", 7);
    const created = await createTool(alice, tool);
    assert.deepEqual(created, tool);
    const stored = await storedTool(alice, tool.uuid);
    assert.deepEqual(stored, {
      body: tool,
      name: tool.name,
      tool_type: "BullNoseEndMill",
      diameter_mm: tool.tool_parameters.CuttingDiameter,
    });
    const read = await api.request<StoredTool>("GET", `/libraries/tools/${tool.uuid}`, { key: alice.key });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, tool);

    const d = tool.tool_parameters.CuttingDiameter!;
    // reground smaller: the neck and the cutting data of the old diameter go (null removes them)
    const patched = await api.request<StoredTool>("PATCH", `/libraries/tools/${tool.uuid}`, {
      key: alice.key,
      body: {
        uuid: tool.uuid,
        name: "Reground",
        tool_parameters: { CuttingDiameter: d - 0.1, NeckDiameter: null, NeckLength: null },
        cutting_data: null,
        coating: null,
      },
    });
    assert.equal(patched.status, 200, patched.text);
    const { coating: _c, cutting_data: _cd, ...rest } = tool;
    const { NeckDiameter: _nd, NeckLength: _nl, ...params } = tool.tool_parameters;
    const expected = { ...rest, name: "Reground", tool_parameters: { ...params, CuttingDiameter: d - 0.1 } };
    assert.deepEqual(patched.body, expected, "parameters merge key by key, null removes");
    assert.deepEqual((await storedTool(alice, tool.uuid))?.body, expected);
    assert.equal((await storedTool(alice, tool.uuid))?.diameter_mm, d - 0.1, "the diameter column follows the body");

    assert.equal((await api.request("DELETE", `/libraries/tools/${tool.uuid}`, { key: alice.key })).status, 204);
    assert.equal(await storedTool(alice, tool.uuid), undefined);
  });

  it("refuses a tool uuid the user has already with 409 tool_exists", async () => {
    const tool = await createTool(alice, freshTool("Tap"));
    const again = await api.request<ErrorBody>("POST", "/libraries/tools", {
      key: alice.key,
      body: { ...tool, name: "Twin" },
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.detail.code, "tool_exists");
    assert.equal((await storedTool(alice, tool.uuid))?.name, tool.name);
  });

  it("lists tools newest first, filtered by tool_type and an inclusive diameter range", async () => {
    // no starter library: the list holds only the tools made here
    const frank = await createTestUser(db.owner, "frank", { emptyLibrary: true });
    const drills = [3, 6, 10].map((d) => freshToolWhere("Drill", (t) => t.tool_parameters.CuttingDiameter === d));
    const mill = freshToolWhere("CentreCuttingEndMill", (t) => t.tool_parameters.CuttingDiameter === 2);
    for (const tool of [...drills, mill]) await createTool(frank, tool);
    const [d3, d6, d10] = drills.map((t) => t.uuid);
    const list = async (query: string) => {
      const res = await api.request<Page<StoredTool>>("GET", `/libraries/tools${query}`, { key: frank.key });
      assert.equal(res.status, 200, res.text);
      return res.body.items.map((t) => t.uuid);
    };
    assert.deepEqual(await list(""), [mill.uuid, d10, d6, d3]);
    assert.deepEqual(await list("?tool_type=Drill"), [d10, d6, d3]);
    assert.deepEqual(await list("?tool_type=Drill&diameter_min=6&diameter_max=6"), [d6], "bounds are inclusive");
    assert.deepEqual(await list("?tool_type=Drill&diameter_min=6"), [d10, d6]);
    assert.deepEqual(await list("?diameter_max=3"), [mill.uuid, d3]);
    assert.deepEqual(await list("?tool_type=BallEndMill"), []);
    const page = await api.request<Page<StoredTool>>("GET", "/libraries/tools?tool_type=Drill&limit=2", {
      key: frank.key,
    });
    assert.deepEqual(
      page.body.items.map((t) => t.uuid),
      [d10, d6],
    );
    const rest = await api.request<Page<StoredTool>>(
      "GET",
      `/libraries/tools?tool_type=Drill&limit=2&cursor=${page.body.next_cursor}`,
      { key: frank.key },
    );
    assert.deepEqual(
      rest.body.items.map((t) => t.uuid),
      [d3],
    );
    assert.equal(rest.body.next_cursor, null);
  });

  it("refuses a diameter range whose min is above its max, and unknown tool types", async () => {
    const bad = await api.request<FieldsError>("GET", "/libraries/tools?diameter_min=10&diameter_max=6", {
      key: alice.key,
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(fieldsOf(bad), [{ field: "query.diameter_min", code: "min_at_most_max" }]);
    const type = await api.request<FieldsError>("GET", "/libraries/tools?tool_type=Spoon&diameter_min=abc", {
      key: alice.key,
    });
    assert.equal(type.status, 400);
    assert.deepEqual(fieldsOf(type), [
      { field: "query.diameter_min", code: "invalid_type" },
      { field: "query.tool_type", code: "invalid_value" },
    ]);
  });

  it("PATCH with sync (the default) updates every assembly holding the tool, and without sync only the entry", async () => {
    const tool = await createTool(alice, freshTool("BallEndMill", 9));
    const holder = freshHolder("BallEndMill", 9);
    const a = assemblyOf("Ball A", holder, tool);
    const b = assemblyOf("Ball B", null, tool);
    const lib = await createLibrary(alice, [a, b]);
    const res = await api.request<StoredTool>("PATCH", `/libraries/tools/${tool.uuid}`, {
      key: alice.key,
      body: { name: "Ball, re-measured", coolant_supply: "through_tool" },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(toolIn((await storedAssembly(lib, a.uuid))!.body), res.body);
    assert.deepEqual((await storedAssembly(lib, a.uuid))!.body.components[0], a.components[0], "the holder stays");
    assert.deepEqual(toolIn((await storedAssembly(lib, b.uuid))!.body), res.body);

    const unsynced = await api.request<StoredTool>("PATCH", `/libraries/tools/${tool.uuid}?sync_assemblies=false`, {
      key: alice.key,
      body: { name: "Entry only" },
    });
    assert.equal(unsynced.status, 200);
    assert.equal((await storedTool(alice, tool.uuid))?.name, "Entry only");
    assert.equal(toolIn((await storedAssembly(lib, a.uuid))!.body).name, "Ball, re-measured");
  });

  it("DELETE of a tool in use with sync_assemblies=false is 409 in_use naming the assemblies, and deletes nothing", async () => {
    const tool = await createTool(alice, freshTool("Reamer", 3));
    const a = assemblyOf("Reamer A", freshHolder("Reamer", 3), tool);
    const b = assemblyOf("Reamer B", null, tool);
    const libA = await createLibrary(alice, [a]);
    const libB = await createLibrary(alice, [b]);
    const res = await api.request<ErrorBody>("DELETE", `/libraries/tools/${tool.uuid}?sync_assemblies=false`, {
      key: alice.key,
    });
    assert.equal(res.status, 409);
    assert.equal(res.body.detail.code, "in_use");
    const named = (
      res.body.detail.details.assemblies as { library_id: string; assembly_id: string; name: string }[]
    ).sort((x, y) => x.name.localeCompare(y.name));
    assert.deepEqual(named, [
      { library_id: libA, assembly_id: a.uuid, name: "Reamer A" },
      { library_id: libB, assembly_id: b.uuid, name: "Reamer B" },
    ]);
    assert.ok(await storedTool(alice, tool.uuid));
    assert.deepEqual((await storedAssembly(libA, a.uuid))?.body, a);
    assert.deepEqual((await storedAssembly(libB, b.uuid))?.body, b);
  });

  it("DELETE with sync (the default) removes the tool from every assembly, deleting an assembly left empty", async () => {
    const tool = await createTool(alice, freshTool("SpotDrill", 2));
    const a = assemblyOf("Spot A", freshHolder("SpotDrill", 2), tool);
    const b = assemblyOf("Spot B", null, tool);
    const lib = await createLibrary(alice, [a, b]);
    const res = await api.request("DELETE", `/libraries/tools/${tool.uuid}`, { key: alice.key });
    assert.equal(res.status, 204);
    assert.equal(await storedTool(alice, tool.uuid), undefined);
    assert.deepEqual(
      (await storedAssembly(lib, a.uuid))?.body.components,
      [a.components[0]],
      "the holder stays, the tool is gone",
    );
    assert.equal(await storedAssembly(lib, b.uuid), undefined, "an assembly left without components is deleted");
  });
});

describe("concurrent changes", () => {
  it("applies synced changes of a holder and a tool of the same assembly made at the same moment, losing neither", async () => {
    for (let round = 0; round < 5; round++) {
      const holder = await createHolder(alice, freshHolder("CentreCuttingEndMill", 40 + round));
      const tool = await createTool(alice, freshTool("CentreCuttingEndMill", 40 + round));
      const assembly = assemblyOf("Shared", holder, tool);
      const lib = await createLibrary(alice, [assembly]);
      const [h, t] = await Promise.all([
        api.request("PATCH", `/libraries/holders/${holder.uuid}`, {
          key: alice.key,
          body: { name: `Holder ${round}` },
        }),
        api.request("PATCH", `/libraries/tools/${tool.uuid}`, { key: alice.key, body: { name: `Tool ${round}` } }),
      ]);
      assert.deepEqual([h.status, t.status], [200, 200]);
      const stored = (await storedAssembly(lib, assembly.uuid))!.body;
      assert.equal((stored.components[0] as { adaptive_item: StoredHolder }).adaptive_item.name, `Holder ${round}`);
      assert.equal(toolIn(stored).name, `Tool ${round}`);
    }
  });
});

describe("POST /libraries/tools/validate", () => {
  it("answers 204 for a valid tool and stores nothing", async () => {
    const before = (await db.owner.query("select count(*)::int as n from app_public.tools")).rows[0].n;
    for (const tool of [freshTool("Drill", 77), { ...freshTool("ThreadMill"), uuid: undefined }]) {
      const res = await api.request("POST", "/libraries/tools/validate", { key: alice.key, body: tool });
      assert.equal(res.status, 204, res.text);
      assert.equal(res.text, "");
    }
    const after = (await db.owner.query("select count(*)::int as n from app_public.tools")).rows[0].n;
    assert.equal(after, before);
  });

  it("answers 400 invalid_parameter naming every violation at once", async () => {
    const tool: Record<string, unknown> & { tool_parameters: Record<string, number> } = freshTool("FaceMill");
    const d = tool.tool_parameters.CuttingDiameter!;
    tool.tool_parameters.CornerRadius = d * 0.6; // above D/2
    tool.tool_parameters.FluteLength = tool.tool_parameters.OverallLength! + 1; // longer than the tool
    tool.tool_parameters.CornerRadus = 1; // misspelt
    tool.flute_count = 2.5;
    tool.colour = "gold";
    const res = await api.request<FieldsError>("POST", "/libraries/tools/validate", { key: alice.key, body: tool });
    assert.equal(res.status, 400);
    assert.equal(res.body.detail.code, "invalid_parameter");
    const fields = fieldsOf(res);
    for (const expected of [
      { field: "body.tool_parameters.CornerRadius", code: "at_most_half_diameter" },
      { field: "body.tool_parameters.FluteLength", code: "within_overall_length" },
      { field: "body.tool_parameters.CornerRadus", code: "unknown_field" },
      { field: "body.flute_count", code: "integer" },
      { field: "body.colour", code: "unknown_field" },
    ]) {
      assert.ok(
        fields.some((f) => f.field === expected.field && f.code === expected.code),
        `${JSON.stringify(expected)} in ${JSON.stringify(fields)}`,
      );
    }
    for (const f of res.body.detail.details.fields) assert.ok(f.message.length > 0, `${f.field} says why`);
  });

  it("answers 400 for a body that is no tool at all", async () => {
    const empty = await api.request<FieldsError>("POST", "/libraries/tools/validate", { key: alice.key, body: {} });
    assert.equal(empty.status, 400);
    assert.deepEqual(fieldsOf(empty), [
      { field: "body.name", code: "required" },
      { field: "body.tool_parameters", code: "required" },
      { field: "body.tool_type", code: "required" },
    ]);
    const list = await api.request<FieldsError>("POST", "/libraries/tools/validate", { key: alice.key, body: [1] });
    assert.deepEqual(fieldsOf(list), [{ field: "body", code: "type" }]);
    const none = await api.request<FieldsError>("POST", "/libraries/tools/validate", { key: alice.key });
    assert.deepEqual(fieldsOf(none), [{ field: "body", code: "type" }]);
  });
});

describe("refusals", () => {
  it("refuses bad bodies and queries of every write, changing nothing", async () => {
    const holder = await createHolder(alice, freshHolder());
    const tool = await createTool(alice, freshTool());
    const badHolder = { ...freshHolder(), gauge_length_mm: 1, segments: [] };
    const cases: [string, string, unknown, { field: string; code: string }[]][] = [
      ["POST", "/libraries/holders", badHolder, [{ field: "body.segments", code: "non_empty" }]],
      [
        "POST",
        "/libraries/holders",
        { ...freshHolder(), stacking_group: "Spindle" },
        [{ field: "body.stacking_group", code: "one_of" }],
      ],
      [
        "POST",
        "/libraries/holders?sync_assemblies=true",
        freshHolder(),
        [{ field: "query.sync_assemblies", code: "unknown_field" }],
      ],
      ["POST", "/libraries/tools", { ...freshTool(), uuid: "not-a-uuid" }, [{ field: "body.uuid", code: "format" }]],
      ["PATCH", `/libraries/holders/${holder.uuid}`, {}, [{ field: "body", code: "non_empty" }]],
      [
        "PATCH",
        `/libraries/holders/${holder.uuid}`,
        { name: null, wear: 3 },
        [
          { field: "body.name", code: "type" },
          { field: "body.wear", code: "unknown_field" },
        ],
      ],
      [
        "PATCH",
        `/libraries/holders/${holder.uuid}`,
        { gauge_length_mm: holder.gauge_length_mm! + 5 },
        [{ field: "body.gauge_length_mm", code: "equals_segment_sum" }],
      ],
      [
        "PATCH",
        `/libraries/holders/${holder.uuid}`,
        { uuid: randomUUID() },
        [{ field: "body.uuid", code: "immutable" }],
      ],
      [
        "PATCH",
        `/libraries/holders/${holder.uuid}?sync_assemblies=yes`,
        { name: "X" },
        [{ field: "query.sync_assemblies", code: "invalid_value" }],
      ],
      [
        "DELETE",
        `/libraries/holders/${holder.uuid}?sync_assemblies=TRUE`,
        undefined,
        [{ field: "query.sync_assemblies", code: "invalid_value" }],
      ],
      [
        "PATCH",
        `/libraries/tools/${tool.uuid}`,
        { tool_parameters: { CuttingDiameter: -1 } },
        [{ field: "body.tool_parameters.CuttingDiameter", code: "positive" }],
      ],
      // the merged result is checked as a whole: an end mill's parameters do not make a drill
      [
        "PATCH",
        `/libraries/tools/${tool.uuid}`,
        { tool_type: "Drill" },
        [
          { field: "body.tool_parameters.NeckDiameter", code: "not_allowed_for_type" },
          { field: "body.tool_parameters.NeckLength", code: "not_allowed_for_type" },
        ],
      ],
      [
        "PATCH",
        `/libraries/tools/${tool.uuid}`,
        { tool_parameters: [] },
        [{ field: "body.tool_parameters", code: "type" }],
      ],
      [
        "DELETE",
        `/libraries/tools/${tool.uuid}?force=true`,
        undefined,
        [{ field: "query.force", code: "unknown_field" }],
      ],
    ];
    for (const [method, path, body, expected] of cases) {
      const res = await api.request<FieldsError>(method, path, { key: alice.key, body });
      assert.equal(res.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.detail.code, "invalid_parameter");
      assert.deepEqual(fieldsOf(res), byField(expected), `${method} ${path} ${JSON.stringify(body)}`);
    }
    assert.deepEqual((await storedHolder(alice, holder.uuid))?.body, holder);
    assert.deepEqual((await storedTool(alice, tool.uuid))?.body, tool);
  });

  it("refuses bad list queries", async () => {
    for (const [path, field] of [
      ["/libraries/holders?limit=101", "query.limit"],
      ["/libraries/holders?stacking_group=Holder", "query.stacking_group"],
      ["/libraries/tools?cursor=abc", "query.cursor"],
      ["/libraries/tools?diameter_max=-1", "query.diameter_max"],
    ]) {
      const res = await api.request<FieldsError>("GET", path!, { key: alice.key });
      assert.equal(res.status, 400, path);
      assert.deepEqual(
        fieldsOf(res).map((f) => f.field),
        [field],
      );
    }
  });

  it("answers 400 naming the parameter for ids that are not UUIDs", async () => {
    for (const [method, path, body, field] of [
      ["GET", "/libraries/holders/12345", undefined, "path.holder_id"],
      ["PATCH", "/libraries/holders/12345", { name: "x" }, "path.holder_id"],
      ["DELETE", "/libraries/holders/12345", undefined, "path.holder_id"],
      ["GET", "/libraries/tools/12345", undefined, "path.tool_id"],
      ["PATCH", "/libraries/tools/12345", { name: "x" }, "path.tool_id"],
      ["DELETE", "/libraries/tools/12345", undefined, "path.tool_id"],
    ] as const) {
      const res = await api.request<FieldsError>(method, path, { key: alice.key, body });
      assert.equal(res.status, 400, `${method} ${path}`);
      assert.deepEqual(
        fieldsOf(res).map((f) => f.field),
        [field],
      );
    }
  });

  it("answers 404 to another user for every holder and tool id, and changes nothing", async () => {
    const holder = await createHolder(alice, freshHolder("Tap", 4));
    const tool = await createTool(alice, freshTool("Tap", 4));
    const lib = await createLibrary(alice, [assemblyOf("Tap", holder, tool)]);
    for (const [method, path, body] of [
      ["GET", `/libraries/holders/${holder.uuid}`, undefined],
      ["PATCH", `/libraries/holders/${holder.uuid}`, { name: "Stolen" }],
      ["DELETE", `/libraries/holders/${holder.uuid}`, undefined],
      ["GET", `/libraries/tools/${tool.uuid}`, undefined],
      ["PATCH", `/libraries/tools/${tool.uuid}`, { name: "Stolen" }],
      ["DELETE", `/libraries/tools/${tool.uuid}`, undefined],
      ["DELETE", `/libraries/tools/${tool.uuid}?sync_assemblies=false`, undefined],
    ] as const) {
      const res = await api.request<ErrorBody>(method, path, { key: bob.key, body });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.detail.code, "not_found");
    }
    const lists = await api.request<Page<StoredTool>>("GET", "/libraries/tools", { key: bob.key });
    assert.ok(!lists.body.items.some((t) => t.uuid === tool.uuid));
    assert.deepEqual((await storedHolder(alice, holder.uuid))?.body, holder);
    assert.deepEqual((await storedTool(alice, tool.uuid))?.body, tool);
    const { rows } = await db.owner.query(
      "select count(*)::int as n from app_public.library_assemblies where library_id = $1",
      [lib],
    );
    assert.equal(rows[0].n, 1);
  });

  it("refuses a key without the route's scope with 403 insufficient_scope", async () => {
    const holder = await createHolder(alice, freshHolder());
    const tool = await createTool(alice, freshTool());
    const readOnly = await alice.keyWith(["equipment:read", "libraries:read"]);
    const writeOnly = await alice.keyWith(["equipment:write", "libraries:read"]);
    for (const [method, path, body, key, missing] of [
      ["GET", "/libraries/holders", undefined, writeOnly, "equipment:read"],
      ["GET", `/libraries/holders/${holder.uuid}`, undefined, writeOnly, "equipment:read"],
      ["POST", "/libraries/holders", freshHolder(), readOnly, "equipment:write"],
      ["PATCH", `/libraries/holders/${holder.uuid}`, { name: "No" }, readOnly, "equipment:write"],
      ["DELETE", `/libraries/holders/${holder.uuid}`, undefined, readOnly, "equipment:write"],
      ["GET", "/libraries/tools", undefined, writeOnly, "equipment:read"],
      ["GET", `/libraries/tools/${tool.uuid}`, undefined, writeOnly, "equipment:read"],
      ["POST", "/libraries/tools", freshTool(), readOnly, "equipment:write"],
      ["POST", "/libraries/tools/validate", freshTool(), writeOnly, "equipment:read"],
      ["PATCH", `/libraries/tools/${tool.uuid}`, { name: "No" }, readOnly, "equipment:write"],
      ["DELETE", `/libraries/tools/${tool.uuid}`, undefined, readOnly, "equipment:write"],
    ] as const) {
      const res = await api.request<ErrorBody>(method, path, { key, body });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.detail.code, "insufficient_scope");
      assert.deepEqual(res.body.detail.details.missing_scopes, [missing]);
    }
    assert.deepEqual((await storedHolder(alice, holder.uuid))?.body, holder);
    assert.deepEqual((await storedTool(alice, tool.uuid))?.body, tool);
  });
});
