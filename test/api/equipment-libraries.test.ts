/**
 * Equipment libraries and their assemblies over HTTP, against a real PostgreSQL: CRUD, the
 * default library, add_to_library and sync_library against the standalone holder and tool
 * libraries, validation and the refusals. Assemblies are entries of the standard catalogue
 * range (kernel/tools/catalogue) given fresh uuids, as a client would post them.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { Assembly, AssemblyComponent } from "../../kernel/tools/assembly.ts";
import { generateStandardRange, type CatalogueEntry } from "../../kernel/tools/catalogue/standard-range.ts";
import { starterLibrary } from "../../kernel/tools/catalogue/starter-library.ts";
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

interface Library {
  id: string;
  library: { name: string; assemblies: Assembly[] };
  description: string;
  is_remote: boolean;
  remote_data: Record<string, unknown>;
  is_default: boolean;
  created_at: string;
  updated_at: string;
}

interface LibrarySummary extends Omit<Library, "library"> {
  library: { name: string; assembly_count: number };
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
// Fixtures: catalogue entries with fresh uuids

function entryOf(type: string, index = 0): CatalogueEntry {
  const entries = range.filter((e) => e.tool_type === type);
  const entry = entries[index];
  assert.ok(entry, `the standard range has ${type} number ${index}`);
  return entry;
}

function holderOf(assembly: Assembly): StoredHolder {
  const c = assembly.components.find((x) => x.component_type === "adaptive_item");
  assert.ok(c && c.component_type === "adaptive_item");
  return c.adaptive_item as StoredHolder;
}

function toolOf(assembly: Assembly): StoredTool {
  const c = assembly.components.at(-1);
  assert.ok(c && c.component_type === "parametric_cutting_tool");
  return c.parametric_cutting_tool as StoredTool;
}

/**
 * A catalogue assembly with a fresh uuid and fresh component uuids, except a holder given
 * as `holder` (shared between assemblies, as one holder model is one library item).
 */
function freshAssembly(
  type = "CentreCuttingEndMill",
  options: { index?: number; holder?: StoredHolder } = {},
): Assembly {
  const assembly = structuredClone(entryOf(type, options.index).assembly);
  assembly.uuid = randomUUID();
  assembly.components = assembly.components.map(
    (c): AssemblyComponent =>
      c.component_type === "adaptive_item"
        ? {
            component_type: "adaptive_item",
            adaptive_item: options.holder
              ? structuredClone(options.holder)
              : { ...c.adaptive_item, uuid: randomUUID() },
          }
        : {
            component_type: "parametric_cutting_tool",
            parametric_cutting_tool: { ...c.parametric_cutting_tool, uuid: randomUUID() },
          },
  );
  return assembly;
}

async function createLibrary(user: TestUser, body: Record<string, unknown> = {}): Promise<Library> {
  const res = await api.request<Library>("POST", "/libraries/equipment", {
    key: user.key,
    body: { library: { name: "Shop floor" }, ...body },
  });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function libraryCount(user: TestUser): Promise<number> {
  const { rows } = await db.owner.query<{ n: number }>(
    "select count(*)::int as n from app_public.equipment_libraries where user_id = $1",
    [user.id],
  );
  return rows[0]?.n ?? -1;
}

async function addAssembly(user: TestUser, libraryId: string, assembly: Assembly, query = ""): Promise<Assembly> {
  const res = await api.request<Assembly>("POST", `/libraries/equipment/${libraryId}/assemblies${query}`, {
    key: user.key,
    body: assembly,
  });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function storedAssemblies(
  libraryId: string,
): Promise<{ id: string; position: number; name: string; body: Assembly }[]> {
  const { rows } = await db.owner.query(
    "select id, position, name, body from app_public.library_assemblies where library_id = $1 order by position",
    [libraryId],
  );
  return rows;
}

async function holderIds(user: TestUser): Promise<string[]> {
  const { rows } = await db.owner.query<{ id: string }>(
    "select id from app_public.holders where user_id = $1 order by id",
    [user.id],
  );
  return rows.map((r) => r.id);
}

async function toolIds(user: TestUser): Promise<string[]> {
  const { rows } = await db.owner.query<{ id: string }>(
    "select id from app_public.tools where user_id = $1 order by id",
    [user.id],
  );
  return rows.map((r) => r.id);
}

async function storedTool(user: TestUser, id: string): Promise<StoredTool | undefined> {
  const { rows } = await db.owner.query("select body from app_public.tools where user_id = $1 and id = $2", [
    user.id,
    id,
  ]);
  return rows[0]?.body;
}

async function storedHolder(user: TestUser, id: string): Promise<StoredHolder | undefined> {
  const { rows } = await db.owner.query("select body from app_public.holders where user_id = $1 and id = $2", [
    user.id,
    id,
  ]);
  return rows[0]?.body;
}

async function defaults(user: TestUser): Promise<string[]> {
  const { rows } = await db.owner.query<{ id: string }>(
    "select id from app_public.equipment_libraries where user_id = $1 and is_default",
    [user.id],
  );
  return rows.map((r) => r.id);
}

/** details.fields as {field, code}, in a stable order */
function fieldsOf(res: { body: unknown }): { field: string; code: string }[] {
  return byField((res.body as FieldsError).detail.details.fields.map(({ field, code }) => ({ field, code })));
}

function byField(fields: { field: string; code: string }[]): { field: string; code: string }[] {
  return [...fields].sort((a, b) => `${a.field} ${a.code}`.localeCompare(`${b.field} ${b.code}`));
}

// ---------------------------------------------------------------------------------------------

describe("equipment libraries", () => {
  it("lists the default library every new user gets, with its assembly count: the starter library's, or none with an empty library", async () => {
    for (const [carol, count] of [
      [await createTestUser(db.owner, "carol"), starterLibrary().length],
      [await createTestUser(db.owner, "carol", { emptyLibrary: true }), 0],
    ] as const) {
      const res = await api.request<{ items: LibrarySummary[]; next_cursor: string | null }>(
        "GET",
        "/libraries/equipment",
        { key: carol.key },
      );
      assert.equal(res.status, 200);
      assert.equal(res.body.next_cursor, null);
      assert.equal(res.body.items.length, 1);
      const [only] = res.body.items;
      assert.deepEqual(
        {
          name: only!.library.name,
          count: only!.library.assembly_count,
          is_default: only!.is_default,
          is_remote: only!.is_remote,
          remote_data: only!.remote_data,
        },
        { name: "Default library", count, is_default: true, is_remote: false, remote_data: {} },
      );
      assert.deepEqual(Object.keys(only!).sort(), [
        "created_at",
        "description",
        "id",
        "is_default",
        "is_remote",
        "library",
        "remote_data",
        "updated_at",
      ]);
    }
  });

  it("creates a library with its assemblies in the order sent, reads it back, and leaves holders and tools alone", async () => {
    const first = freshAssembly("CentreCuttingEndMill");
    const second = freshAssembly("Drill", { index: 40 });
    const created = await createLibrary(alice, {
      library: { name: "  Aluminium cell  ", assemblies: [first, second] },
      description: "VMC 2, aluminium jobs",
      is_remote: true,
      remote_data: { source: "tool-crib", revision: 7 },
    });
    assert.match(created.id, /^[0-9a-f-]{36}$/);
    assert.equal(created.library.name, "Aluminium cell", "the name is trimmed");
    assert.deepEqual(created.library.assemblies, [first, second]);
    assert.equal(created.is_default, false);
    assert.equal(created.is_remote, true);
    assert.deepEqual(created.remote_data, { source: "tool-crib", revision: 7 });

    const read = await api.request<Library>("GET", `/libraries/equipment/${created.id}`, { key: alice.key });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, created);

    const rows = await storedAssemblies(created.id);
    assert.deepEqual(
      rows.map((r) => [r.id, r.position, r.name]),
      [
        [first.uuid, 0, first.name],
        [second.uuid, 1, second.name],
      ],
    );
    assert.deepEqual(rows[0]!.body, first);
    assert.ok(!(await holderIds(alice)).includes(holderOf(first).uuid), "holders are not touched by a library create");
    assert.ok(!(await toolIds(alice)).includes(toolOf(first).uuid), "tools are not touched by a library create");

    const list = await api.request<{ items: LibrarySummary[] }>("GET", "/libraries/equipment", { key: alice.key });
    assert.equal(list.body.items.find((l) => l.id === created.id)?.library.assembly_count, 2);
  });

  it("takes a whole library larger than JSON_BODY_LIMIT_BYTES in one create and one PATCH, up to LIBRARY_BODY_LIMIT_BYTES", async () => {
    const assemblies = starterLibrary();
    const body = { library: { name: "The starter set, posted", assemblies } };
    assert.ok(JSON.stringify(body).length > 256 * 1024, "the starter library is over the default JSON body limit");
    const created = await createLibrary(alice, body);
    assert.equal(created.library.assemblies.length, assemblies.length);
    const patched = await api.request<Library>("PATCH", `/libraries/equipment/${created.id}`, {
      key: alice.key,
      body: { library: { assemblies: assemblies.slice().reverse() } },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.library.assemblies[0]?.uuid, assemblies.at(-1)?.uuid);

    const before = await libraryCount(alice);
    const padded = { ...body, description: "x".repeat(4 * 1024 * 1024) };
    const refused = await api.request<ErrorBody>("POST", "/libraries/equipment", { key: alice.key, body: padded });
    assert.equal(refused.status, 413, refused.text);
    assert.equal(refused.body.detail.code, "payload_too_large");
    assert.equal(await libraryCount(alice), before, "nothing is created");
    // every other body keeps the small limit
    const project = await api.request<ErrorBody>("POST", "/projects", {
      key: alice.key,
      body: { name: "x", notes: "n".repeat(300 * 1024) },
    });
    assert.equal(project.status, 413, project.text);
  });

  it("replays a create with the same Idempotency-Key instead of making a second library", async () => {
    const before = (
      await db.owner.query("select count(*)::int as n from app_public.equipment_libraries where user_id = $1", [
        alice.id,
      ])
    ).rows[0].n;
    const headers = { "Idempotency-Key": `lib-${randomUUID()}` };
    const body = { library: { name: "Once", assemblies: [freshAssembly()] } };
    const first = await api.request<Library>("POST", "/libraries/equipment", { key: alice.key, body, headers });
    const again = await api.request<Library>("POST", "/libraries/equipment", { key: alice.key, body, headers });
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get("idempotency-replayed"), "true");
    assert.equal(again.body.id, first.body.id);
    const after = (
      await db.owner.query("select count(*)::int as n from app_public.equipment_libraries where user_id = $1", [
        alice.id,
      ])
    ).rows[0].n;
    assert.equal(after, before + 1);
  });

  it("moves the default library on create and on PATCH, and a PATCH with is_default false only clears it", async () => {
    const dave = await createTestUser(db.owner, "dave");
    const [original] = await defaults(dave);
    assert.ok(original);

    const made = await createLibrary(dave, { library: { name: "New default" }, is_default: true });
    assert.equal(made.is_default, true);
    assert.deepEqual(await defaults(dave), [made.id], "the previous default lost it in the same request");

    const back = await api.request<Library>("PATCH", `/libraries/equipment/${original}`, {
      key: dave.key,
      body: { is_default: true },
    });
    assert.equal(back.status, 200);
    assert.equal(back.body.is_default, true);
    assert.deepEqual(await defaults(dave), [original]);

    const project = await api.request<{ library_id: string }>("POST", "/projects", {
      key: dave.key,
      body: { name: "P", customer: "C" },
    });
    assert.equal(project.body.library_id, original, "new projects use the default");

    const cleared = await api.request<Library>("PATCH", `/libraries/equipment/${original}`, {
      key: dave.key,
      body: { is_default: false },
    });
    assert.equal(cleared.body.is_default, false);
    assert.deepEqual(await defaults(dave), [], "false clears it without moving it elsewhere");
    const { rows } = await db.owner.query("select is_default from app_public.equipment_libraries where id = $1", [
      made.id,
    ]);
    assert.equal(rows[0].is_default, false);
  });

  it("changes only the fields a PATCH sends, and replaces the assemblies only when they are sent", async () => {
    const kept = freshAssembly("BallEndMill");
    const created = await createLibrary(alice, {
      library: { name: "Before", assemblies: [kept] },
      description: "keep me",
      remote_data: { a: 1 },
    });
    const renamed = await api.request<Library>("PATCH", `/libraries/equipment/${created.id}`, {
      key: alice.key,
      body: { library: { name: "After" } },
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.library.name, "After");
    assert.equal(renamed.body.description, "keep me");
    assert.deepEqual(renamed.body.remote_data, { a: 1 });
    assert.deepEqual(renamed.body.library.assemblies, [kept], "assemblies not sent stay as they are");
    assert.ok(renamed.body.updated_at >= created.updated_at);

    const replacement = [freshAssembly("Tap"), freshAssembly("SpotDrill")];
    const replaced = await api.request<Library>("PATCH", `/libraries/equipment/${created.id}`, {
      key: alice.key,
      body: { library: { assemblies: replacement }, description: "", is_remote: true, remote_data: { b: 2 } },
    });
    assert.equal(replaced.status, 200);
    assert.deepEqual(replaced.body.library.assemblies, replacement);
    assert.equal(replaced.body.library.name, "After");
    assert.deepEqual(
      [replaced.body.description, replaced.body.is_remote, replaced.body.remote_data],
      ["", true, { b: 2 }],
    );
    assert.deepEqual(
      (await storedAssemblies(created.id)).map((r) => [r.id, r.position]),
      [
        [replacement[0]!.uuid, 0],
        [replacement[1]!.uuid, 1],
      ],
    );

    const emptied = await api.request<Library>("PATCH", `/libraries/equipment/${created.id}`, {
      key: alice.key,
      body: { library: { assemblies: [] } },
    });
    assert.deepEqual(emptied.body.library.assemblies, []);
    assert.equal((await storedAssemblies(created.id)).length, 0);
  });

  it("deletes a library with its assemblies; a project that used it keeps library_id null", async () => {
    const created = await createLibrary(alice, { library: { name: "Doomed", assemblies: [freshAssembly()] } });
    const project = await api.request<{ id: string }>("POST", "/projects", {
      key: alice.key,
      body: { name: "P", customer: "C", library_id: created.id },
    });
    assert.equal(project.status, 201);
    const del = await api.request("DELETE", `/libraries/equipment/${created.id}`, { key: alice.key });
    assert.equal(del.status, 204);
    assert.equal((await api.request("GET", `/libraries/equipment/${created.id}`, { key: alice.key })).status, 404);
    assert.equal((await storedAssemblies(created.id)).length, 0);
    const after = await api.request<{ library_id: string | null }>("GET", `/projects/${project.body.id}`, {
      key: alice.key,
    });
    assert.equal(after.body.library_id, null);
    assert.equal((await api.request("DELETE", `/libraries/equipment/${created.id}`, { key: alice.key })).status, 404);
  });

  it("pages through libraries newest first, each one once", async () => {
    const erin = await createTestUser(db.owner, "erin");
    const made = [];
    for (const name of ["L1", "L2", "L3"]) made.push((await createLibrary(erin, { library: { name } })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { items: LibrarySummary[]; next_cursor: string | null } } = await api.request(
        "GET",
        `/libraries/equipment?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        { key: erin.key },
      );
      assert.equal(page.status, 200);
      assert.ok(page.body.items.length <= 2);
      seen.push(...page.body.items.map((l) => l.library.name));
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, ["L3", "L2", "L1", "Default library"]);
  });
});

describe("assemblies", () => {
  it("appends an assembly as the library's last slot and refuses its uuid a second time with 409 assembly_exists", async () => {
    const library = await createLibrary(alice, { library: { name: "Slots", assemblies: [freshAssembly()] } });
    const assembly = freshAssembly("ChamferMill");
    const added = await api.request<Assembly>("POST", `/libraries/equipment/${library.id}/assemblies`, {
      key: alice.key,
      body: assembly,
    });
    assert.equal(added.status, 201);
    assert.deepEqual(added.body, assembly);
    const rows = await storedAssemblies(library.id);
    assert.deepEqual(
      rows.map((r) => r.position),
      [0, 1],
    );
    assert.equal(rows[1]!.id, assembly.uuid);

    const again = await api.request<ErrorBody>("POST", `/libraries/equipment/${library.id}/assemblies`, {
      key: alice.key,
      body: { ...assembly, name: "Other name" },
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.detail.code, "assembly_exists");
    assert.equal((await storedAssemblies(library.id))[1]!.name, assembly.name, "the stored assembly is unchanged");

    const elsewhere = await createLibrary(alice);
    assert.equal(
      (await api.request("POST", `/libraries/equipment/${elsewhere.id}/assemblies`, { key: alice.key, body: assembly }))
        .status,
      201,
      "another library may hold the same uuid",
    );
  });

  it("stores uuids lowercase whatever case the client sent", async () => {
    const library = await createLibrary(alice);
    const assembly = freshAssembly();
    const upper = structuredClone(assembly);
    upper.uuid = upper.uuid.toUpperCase();
    toolOf(upper).uuid = toolOf(upper).uuid.toUpperCase();
    const added = await addAssembly(alice, library.id, upper, "?add_to_library=true");
    assert.deepEqual(added, assembly);
    assert.ok(await storedTool(alice, toolOf(assembly).uuid));
  });

  it("takes distinct slots for assemblies appended at the same moment", async () => {
    const library = await createLibrary(alice);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        api.request("POST", `/libraries/equipment/${library.id}/assemblies`, { key: alice.key, body: freshAssembly() }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      [201, 201, 201, 201, 201, 201],
    );
    assert.deepEqual(
      (await storedAssemblies(library.id)).map((r) => r.position),
      [0, 1, 2, 3, 4, 5],
    );
  });

  it("leaves holders and tools alone by default, and with add_to_library saves every component by its uuid, updating an existing entry", async () => {
    const library = await createLibrary(alice);
    const plain = freshAssembly("Reamer");
    await addAssembly(alice, library.id, plain);
    assert.equal(await storedTool(alice, toolOf(plain).uuid), undefined);
    assert.equal(await storedHolder(alice, holderOf(plain).uuid), undefined);

    const assembly = freshAssembly("BullNoseEndMill", { index: 3 });
    const tool = toolOf(assembly);
    // the user has this tool already, under an older name
    const older = await api.request("POST", "/libraries/tools", {
      key: alice.key,
      body: { ...tool, name: "Old name" },
    });
    assert.equal(older.status, 201);
    await addAssembly(alice, library.id, assembly, "?add_to_library=true");
    assert.deepEqual(await storedTool(alice, tool.uuid), tool, "the existing entry now equals the component");
    assert.deepEqual(await storedHolder(alice, holderOf(assembly).uuid), holderOf(assembly), "the holder was inserted");
    const { rows } = await db.owner.query("select name, tool_type, diameter_mm from app_public.tools where id = $1", [
      tool.uuid,
    ]);
    assert.deepEqual(rows[0], {
      name: tool.name,
      tool_type: "BullNoseEndMill",
      diameter_mm: tool.tool_parameters.CuttingDiameter,
    });
  });

  it("PATCHes an assembly's fields, leaving holders and tools alone without sync_library", async () => {
    const library = await createLibrary(alice);
    const assembly = freshAssembly("CentreCuttingEndMill", { index: 5 });
    await addAssembly(alice, library.id, assembly, "?add_to_library=true");
    const otherTool = toolOf(freshAssembly("CentreCuttingEndMill", { index: 6 }));
    const components = [
      assembly.components[0]!,
      { component_type: "parametric_cutting_tool", parametric_cutting_tool: otherTool },
    ];
    const res = await api.request<Assembly>("PATCH", `/libraries/equipment/${library.id}/assemblies/${assembly.uuid}`, {
      key: alice.key,
      body: { name: "Swapped cutter", manufacturer: null, components },
    });
    assert.equal(res.status, 200, res.text);
    const expected: Assembly = {
      uuid: assembly.uuid,
      name: "Swapped cutter",
      components: components as AssemblyComponent[],
    };
    assert.deepEqual(res.body, expected, "manufacturer removed by null, the rest replaced");
    assert.deepEqual((await storedAssemblies(library.id))[0]!.body, expected);
    assert.deepEqual(
      await storedTool(alice, toolOf(assembly).uuid),
      toolOf(assembly),
      "the removed tool stays without sync_library",
    );
    assert.equal(await storedTool(alice, otherTool.uuid), undefined, "the new tool is not saved without sync_library");
  });

  it("PATCH with sync_library propagates the components and deletes the orphans the edit removed, but not one another assembly holds", async () => {
    const library = await createLibrary(alice);
    const base = freshAssembly("BallEndMill", { index: 2 });
    const holder = holderOf(base);
    const a = freshAssembly("BallEndMill", { index: 2, holder });
    const b = freshAssembly("BallEndMill", { index: 4, holder });
    await addAssembly(alice, library.id, a, "?add_to_library=true");
    await addAssembly(alice, library.id, b, "?add_to_library=true");
    const t1 = toolOf(a);
    const t2 = toolOf(b);
    const t3 = toolOf(freshAssembly("BallEndMill", { index: 6 }));

    // a's holder renamed and its tool swapped for t3; b still holds the holder
    const renamedHolder = { ...holder, name: "SK40 ER25 collet chuck, re-measured" };
    const res = await api.request<Assembly>(
      "PATCH",
      `/libraries/equipment/${library.id}/assemblies/${a.uuid}?sync_library=true`,
      {
        key: alice.key,
        body: {
          components: [
            { component_type: "adaptive_item", adaptive_item: renamedHolder },
            { component_type: "parametric_cutting_tool", parametric_cutting_tool: t3 },
          ],
        },
      },
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await storedHolder(alice, holder.uuid), renamedHolder, "the edited holder propagated");
    assert.deepEqual(await storedTool(alice, t3.uuid), t3, "the new tool was saved");
    assert.equal(
      await storedTool(alice, t1.uuid),
      undefined,
      "the tool the edit removed, held by no assembly, is deleted",
    );
    assert.deepEqual(await storedTool(alice, t2.uuid), t2, "b's tool is untouched");
    const stored = await storedAssemblies(library.id);
    assert.deepEqual(holderOf(stored[1]!.body), holder, "other assemblies keep their copy of the holder");
  });

  it("DELETE an assembly deletes its orphaned components by default, keeping the ones another assembly still holds", async () => {
    const library = await createLibrary(alice);
    const holder = holderOf(freshAssembly("Drill", { index: 100 }));
    const a = freshAssembly("Drill", { index: 100, holder });
    const b = freshAssembly("Drill", { index: 101, holder });
    await addAssembly(alice, library.id, a, "?add_to_library=true");
    await addAssembly(alice, library.id, b, "?add_to_library=true");
    // the same holder in another library keeps it too
    const other = await createLibrary(alice);
    const c = freshAssembly("Drill", { index: 102, holder });
    await addAssembly(alice, other.id, c, "?add_to_library=true");

    assert.equal(
      (await api.request("DELETE", `/libraries/equipment/${library.id}/assemblies/${a.uuid}`, { key: alice.key }))
        .status,
      204,
    );
    assert.equal(await storedTool(alice, toolOf(a).uuid), undefined, "a's tool was an orphan");
    assert.ok(await storedHolder(alice, holder.uuid), "b and c still hold the holder");
    assert.ok(await storedTool(alice, toolOf(b).uuid));
    assert.deepEqual(
      (await storedAssemblies(library.id)).map((r) => r.id),
      [b.uuid],
    );

    assert.equal(
      (await api.request("DELETE", `/libraries/equipment/${library.id}/assemblies/${b.uuid}`, { key: alice.key }))
        .status,
      204,
    );
    assert.ok(await storedHolder(alice, holder.uuid), "c, in another library, still holds the holder");
    assert.equal(
      (await api.request("DELETE", `/libraries/equipment/${other.id}/assemblies/${c.uuid}`, { key: alice.key })).status,
      204,
    );
    assert.equal(await storedHolder(alice, holder.uuid), undefined, "no assembly holds it any more");
  });

  it("DELETE an assembly with sync_library=false keeps every component", async () => {
    const library = await createLibrary(alice);
    const a = freshAssembly("ThreadMill");
    await addAssembly(alice, library.id, a, "?add_to_library=true");
    const res = await api.request(
      "DELETE",
      `/libraries/equipment/${library.id}/assemblies/${a.uuid}?sync_library=false`,
      { key: alice.key },
    );
    assert.equal(res.status, 204);
    assert.ok(await storedTool(alice, toolOf(a).uuid));
    assert.ok(await storedHolder(alice, holderOf(a).uuid));
    assert.equal((await storedAssemblies(library.id)).length, 0);
  });
});

describe("validation and refusals", () => {
  it("names every violation of every assembly in a library body at once, with the kernel's rule codes", async () => {
    const good = freshAssembly();
    const bad = freshAssembly("FaceMill");
    const face = toolOf(bad);
    face.tool_parameters.CornerRadius = face.tool_parameters.CuttingDiameter! * 0.6;
    face.tool_parameters.FluteLength = face.tool_parameters.OverallLength! + 1;
    const reversed = freshAssembly("Drill");
    reversed.components.reverse();
    const extra = { ...freshAssembly(), colour: "red" };
    const duplicate = { ...freshAssembly(), uuid: good.uuid };
    const res = await api.request<FieldsError>("POST", "/libraries/equipment", {
      key: alice.key,
      body: { library: { name: "Broken", assemblies: [good, bad, reversed, extra, duplicate] } },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.detail.code, "invalid_parameter");
    const fields = fieldsOf(res);
    for (const expected of [
      {
        field: "body.library.assemblies.1.components.1.parametric_cutting_tool.tool_parameters.CornerRadius",
        code: "at_most_half_diameter",
      },
      {
        field: "body.library.assemblies.1.components.1.parametric_cutting_tool.tool_parameters.FluteLength",
        code: "within_overall_length",
      },
      { field: "body.library.assemblies.2.components.0", code: "cutting_tool_last" },
      { field: "body.library.assemblies.2.components.1.adaptive_item.stacking_group", code: "holder_first" },
      { field: "body.library.assemblies.3.colour", code: "unknown_field" },
      { field: "body.library.assemblies.4.uuid", code: "unique" },
    ]) {
      assert.ok(
        fields.some((f) => f.field === expected.field && f.code === expected.code),
        `${JSON.stringify(expected)} in ${JSON.stringify(fields)}`,
      );
    }
    const { rows } = await db.owner.query(
      "select count(*)::int as n from app_public.equipment_libraries where name = 'Broken'",
    );
    assert.equal(rows[0].n, 0, "nothing stored");
  });

  it("refuses bad library bodies: wrong shapes, unknown fields, an empty PATCH", async () => {
    const library = await createLibrary(alice);
    const cases: [string, string, unknown, { field: string; code: string }[]][] = [
      ["POST", "/libraries/equipment", {}, [{ field: "body.library", code: "invalid_type" }]],
      ["POST", "/libraries/equipment", { library: "Main" }, [{ field: "body.library", code: "invalid_type" }]],
      ["POST", "/libraries/equipment", { library: { name: "" } }, [{ field: "body.library.name", code: "too_small" }]],
      [
        "POST",
        "/libraries/equipment",
        { library: { name: "X", assemblies: {} } },
        [{ field: "body.library.assemblies", code: "type" }],
      ],
      [
        "POST",
        "/libraries/equipment",
        { library: { name: "X", slots: [] } },
        [{ field: "body.library.slots", code: "unknown_field" }],
      ],
      [
        "POST",
        "/libraries/equipment",
        { library: { name: "X" }, is_default: "yes", owner: "me" },
        [
          { field: "body.is_default", code: "invalid_type" },
          { field: "body.owner", code: "unknown_field" },
        ],
      ],
      [
        "POST",
        "/libraries/equipment",
        { library: { name: "X" }, remote_data: [1] },
        [{ field: "body.remote_data", code: "invalid_type" }],
      ],
      ["PATCH", `/libraries/equipment/${library.id}`, {}, [{ field: "body", code: "non_empty" }]],
      ["PATCH", `/libraries/equipment/${library.id}`, { library: {} }, [{ field: "body.library", code: "non_empty" }]],
      [
        "PATCH",
        `/libraries/equipment/${library.id}`,
        { id: library.id },
        [
          { field: "body", code: "non_empty" },
          { field: "body.id", code: "unknown_field" },
        ],
      ],
    ];
    for (const [method, path, body, expected] of cases) {
      const res = await api.request<FieldsError>(method, path, { key: alice.key, body });
      assert.equal(res.status, 400, `${method} ${path} ${JSON.stringify(body)}`);
      assert.equal(res.body.detail.code, "invalid_parameter");
      assert.deepEqual(fieldsOf(res), byField(expected), `${method} ${path} ${JSON.stringify(body)}`);
    }
    const read = await api.request<Library>("GET", `/libraries/equipment/${library.id}`, { key: alice.key });
    assert.equal(read.body.library.name, "Shop floor");

    const malformed = await api.request<ErrorBody>("POST", "/libraries/equipment", {
      key: alice.key,
      raw: { body: '{"library": {', contentType: "application/json" },
    });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.detail.code, "malformed_json");
    const text = await api.request<ErrorBody>("POST", "/libraries/equipment", {
      key: alice.key,
      raw: { body: "name=Main", contentType: "text/plain" },
    });
    assert.equal(text.status, 415);
    for (const [query, field] of [
      ["?limit=0", "query.limit"],
      ["?cursor=bogus", "query.cursor"],
      ["?name=Main", "query.name"],
    ]) {
      const list = await api.request<FieldsError>("GET", `/libraries/equipment${query}`, { key: alice.key });
      assert.equal(list.status, 400, query);
      assert.deepEqual(
        fieldsOf(list).map((f) => f.field),
        [field],
      );
    }
  });

  it("refuses bad assembly bodies and queries, and a PATCH that would break the stack, changing nothing", async () => {
    const library = await createLibrary(alice);
    const assembly = freshAssembly();
    await addAssembly(alice, library.id, assembly);
    const path = `/libraries/equipment/${library.id}/assemblies`;
    const noUuid: Record<string, unknown> = structuredClone(assembly);
    delete noUuid.uuid;
    const cases: [string, string, unknown, { field: string; code: string }[]][] = [
      ["POST", path, noUuid, [{ field: "body.uuid", code: "required" }]],
      ["POST", path, [assembly], [{ field: "body", code: "type" }]],
      ["POST", path, { ...freshAssembly(), components: [] }, [{ field: "body.components", code: "non_empty" }]],
      [
        "POST",
        `${path}?add_to_library=yes`,
        freshAssembly(),
        [{ field: "query.add_to_library", code: "invalid_value" }],
      ],
      ["POST", `${path}?sync_library=true`, freshAssembly(), [{ field: "query.sync_library", code: "unknown_field" }]],
      ["PATCH", `${path}/${assembly.uuid}`, {}, [{ field: "body", code: "non_empty" }]],
      ["PATCH", `${path}/${assembly.uuid}`, { name: null }, [{ field: "body.name", code: "type" }]],
      ["PATCH", `${path}/${assembly.uuid}`, { slot: 3 }, [{ field: "body.slot", code: "unknown_field" }]],
      [
        "PATCH",
        `${path}/${assembly.uuid}`,
        { components: [...assembly.components].reverse() },
        [
          { field: "body.components.0", code: "cutting_tool_last" },
          { field: "body.components.1.adaptive_item.stacking_group", code: "holder_first" },
        ],
      ],
      ["PATCH", `${path}/${assembly.uuid}`, { uuid: randomUUID() }, [{ field: "body.uuid", code: "immutable" }]],
      [
        "PATCH",
        `${path}/${assembly.uuid}?sync_library=1`,
        { name: "X" },
        [{ field: "query.sync_library", code: "invalid_value" }],
      ],
      [
        "DELETE",
        `${path}/${assembly.uuid}?sync_library=no`,
        undefined,
        [{ field: "query.sync_library", code: "invalid_value" }],
      ],
    ];
    for (const [method, url, body, expected] of cases) {
      const res = await api.request<FieldsError>(method, url, { key: alice.key, body });
      assert.equal(res.status, 400, `${method} ${url} ${JSON.stringify(body)?.slice(0, 80)}: ${res.text}`);
      assert.equal(res.body.detail.code, "invalid_parameter");
      assert.deepEqual(fieldsOf(res), byField(expected), `${method} ${url}`);
    }
    assert.deepEqual(
      (await storedAssemblies(library.id)).map((r) => r.body),
      [assembly],
      "nothing changed",
    );
  });

  it("answers 400 naming the parameter for ids that are not UUIDs", async () => {
    const library = await createLibrary(alice);
    const assembly = freshAssembly();
    await addAssembly(alice, library.id, assembly);
    const cases: [string, string, unknown, string][] = [
      ["GET", "/libraries/equipment/12345", undefined, "path.library_id"],
      ["PATCH", "/libraries/equipment/12345", { description: "x" }, "path.library_id"],
      ["DELETE", "/libraries/equipment/12345", undefined, "path.library_id"],
      ["POST", "/libraries/equipment/12345/assemblies", freshAssembly(), "path.library_id"],
      ["PATCH", `/libraries/equipment/${library.id}/assemblies/12345`, { name: "x" }, "path.assembly_id"],
      ["DELETE", `/libraries/equipment/12345/assemblies/${assembly.uuid}`, undefined, "path.library_id"],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await api.request<FieldsError>(method, path, { key: alice.key, body });
      assert.equal(res.status, 400, `${method} ${path}`);
      assert.deepEqual(
        fieldsOf(res).map((f) => f.field),
        [field],
      );
    }
  });

  it("answers 404 to another user for every library and assembly id, and changes nothing", async () => {
    const assembly = freshAssembly();
    const library = await createLibrary(alice, { library: { name: "Alice's", assemblies: [assembly] } });
    await api.request("POST", "/libraries/tools", { key: alice.key, body: toolOf(assembly) });
    const before = await storedAssemblies(library.id);
    const bobsTools = await toolIds(bob);
    const cases: [string, string, unknown][] = [
      ["GET", `/libraries/equipment/${library.id}`, undefined],
      ["PATCH", `/libraries/equipment/${library.id}`, { library: { name: "Stolen" }, is_default: true }],
      ["DELETE", `/libraries/equipment/${library.id}`, undefined],
      ["POST", `/libraries/equipment/${library.id}/assemblies?add_to_library=true`, freshAssembly()],
      ["PATCH", `/libraries/equipment/${library.id}/assemblies/${assembly.uuid}?sync_library=true`, { name: "Stolen" }],
      ["DELETE", `/libraries/equipment/${library.id}/assemblies/${assembly.uuid}`, undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await api.request<ErrorBody>(method, path, { key: bob.key, body });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.detail.code, "not_found");
    }
    const list = await api.request<{ items: LibrarySummary[] }>("GET", "/libraries/equipment", { key: bob.key });
    assert.ok(!list.body.items.some((l) => l.id === library.id));
    assert.deepEqual(await storedAssemblies(library.id), before);
    const read = await api.request<Library>("GET", `/libraries/equipment/${library.id}`, { key: alice.key });
    assert.equal(read.body.library.name, "Alice's");
    assert.ok(await storedTool(alice, toolOf(assembly).uuid));
    assert.deepEqual(await toolIds(bob), bobsTools, "bob's tools are as they were");
  });

  it("refuses a key without the route's scope with 403 insufficient_scope", async () => {
    const library = await createLibrary(alice);
    const assembly = freshAssembly();
    await addAssembly(alice, library.id, assembly);
    const writeOnly = await alice.keyWith(["equipment:write", "equipment:read"]);
    const readOnly = await alice.keyWith(["libraries:read", "equipment:read"]);
    const cases: [string, string, unknown, string, string][] = [
      ["GET", "/libraries/equipment", undefined, writeOnly, "libraries:read"],
      ["GET", `/libraries/equipment/${library.id}`, undefined, writeOnly, "libraries:read"],
      ["POST", "/libraries/equipment", { library: { name: "No" } }, readOnly, "equipment:write"],
      ["PATCH", `/libraries/equipment/${library.id}`, { description: "No" }, readOnly, "equipment:write"],
      ["DELETE", `/libraries/equipment/${library.id}`, undefined, readOnly, "equipment:write"],
      ["POST", `/libraries/equipment/${library.id}/assemblies`, freshAssembly(), readOnly, "equipment:write"],
      [
        "PATCH",
        `/libraries/equipment/${library.id}/assemblies/${assembly.uuid}`,
        { name: "No" },
        readOnly,
        "equipment:write",
      ],
      [
        "DELETE",
        `/libraries/equipment/${library.id}/assemblies/${assembly.uuid}`,
        undefined,
        readOnly,
        "equipment:write",
      ],
    ];
    for (const [method, path, body, key, missing] of cases) {
      const res = await api.request<ErrorBody>(method, path, { key, body });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.detail.code, "insufficient_scope");
      assert.deepEqual(res.body.detail.details.missing_scopes, [missing]);
    }
    const read = await api.request<Library>("GET", `/libraries/equipment/${library.id}`, { key: alice.key });
    assert.deepEqual(read.body.library.assemblies, [assembly]);
    assert.equal(read.body.description, "");
  });
});
