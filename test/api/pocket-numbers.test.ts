/**
 * An assembly's pocket number over HTTP, against a real PostgreSQL: taken, read back, changed
 * and removed; refused when it is no T number or another assembly of the library has it already
 * (a 400 naming the field and both assemblies), allowed again in another library; documented in
 * the OpenAPI document as an extension.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { API_BASE_PATH } from "../../http/base-path.ts";
import type { Assembly } from "../../kernel/tools/assembly.ts";
import { starterLibrary } from "../../kernel/tools/catalogue/starter-library.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface FieldsError {
  detail: { code: string; details: { fields: { field: string; code: string; message: string }[] } };
}

type Json = Record<string, unknown>;

interface Library {
  id: string;
  library: { name: string; assemblies: Assembly[] };
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
const starter = starterLibrary();

before(async () => {
  db = await createTestDatabase();
  [api, alice] = await Promise.all([startTestApi(db), createTestUser(db.owner, "alice")]);
});
after(async () => {
  await api.close();
  await db.drop();
});

/** A starter assembly under a fresh uuid (its components keep theirs: an assembly's own ids are what must be unique). */
function fresh(index: number, pocket?: number): Assembly {
  const assembly = { ...structuredClone(starter[index]!), uuid: randomUUID() };
  return pocket === undefined ? assembly : { ...assembly, pocket_number: pocket };
}

async function createLibrary(assemblies: Assembly[] = []): Promise<Library> {
  const res = await api.request<Library>("POST", "/libraries/equipment", {
    key: alice.key,
    body: { library: { name: "Magazine", assemblies } },
  });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

const assembliesPath = (library: Library) => `/libraries/equipment/${library.id}/assemblies`;

async function readBack(library: Library): Promise<(number | undefined)[]> {
  const res = await api.request<Library>("GET", `/libraries/equipment/${library.id}`, { key: alice.key });
  assert.equal(res.status, 200, res.text);
  return res.body.library.assemblies.map((a) => a.pocket_number);
}

function fields(res: { body: unknown }): { field: string; code: string; message: string }[] {
  return (res.body as FieldsError).detail.details.fields;
}

describe("an assembly's pocket number", () => {
  it("is taken on POST and read back with the library; a bad one is a 400 naming body.pocket_number", async () => {
    const library = await createLibrary();
    for (const [bad, code] of [
      [0, "range"],
      [-1, "range"],
      [2.5, "integer"],
      ["12", "type"],
      [10000, "range"],
    ] as const) {
      const res = await api.request<FieldsError>("POST", assembliesPath(library), {
        key: alice.key,
        body: { ...fresh(0), pocket_number: bad },
      });
      assert.equal(res.status, 400, `${bad}: ${res.text}`);
      assert.equal((res.body as FieldsError).detail.code, "invalid_parameter");
      assert.deepEqual(
        fields(res).map((f) => [f.field, f.code]),
        [["body.pocket_number", code]],
        String(bad),
      );
    }
    const good = fresh(0, 12);
    const res = await api.request<Assembly>("POST", assembliesPath(library), { key: alice.key, body: good });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.pocket_number, 12);
    assert.deepEqual(await readBack(library), [12]);
  });

  it("is one assembly's within a library: a second one is refused naming both, another library may have it", async () => {
    const face = fresh(0, 5);
    const library = await createLibrary([face]);
    const second = fresh(1, 5);
    const res = await api.request<FieldsError>("POST", assembliesPath(library), { key: alice.key, body: second });
    assert.equal(res.status, 400, res.text);
    const [only] = fields(res);
    assert.ok(only);
    assert.deepEqual([only.field, only.code], ["body.pocket_number", "unique"]);
    // the field is the one sent; the message names it and the assembly that has the number
    for (const named of [second.uuid, face.uuid, `"${second.name}"`, `"${face.name}"`])
      assert.ok(only.message.includes(named), `${named} in ${only.message}`);
    assert.deepEqual(await readBack(library), [5], "nothing stored");

    const other = await createLibrary();
    const elsewhere = await api.request("POST", assembliesPath(other), { key: alice.key, body: second });
    assert.equal(elsewhere.status, 201, elsewhere.text);

    const listed = await api.request<FieldsError>("POST", "/libraries/equipment", {
      key: alice.key,
      body: { library: { name: "Two in one pocket", assemblies: [fresh(0, 3), fresh(1), fresh(2, 3)] } },
    });
    assert.equal(listed.status, 400, listed.text);
    assert.deepEqual(
      fields(listed).map((f) => [f.field, f.code]),
      [["body.library.assemblies.2.pocket_number", "unique"]],
    );
    assert.match(fields(listed)[0]!.message, /assemblies\.0 /);
  });

  it("is changed by PATCH, refused when another assembly of the library has it, and removed by null", async () => {
    const [a, b] = [fresh(0, 1), fresh(1, 2)];
    const library = await createLibrary([a, b]);
    const patch = (uuid: string, body: unknown) =>
      api.request<Assembly>("PATCH", `${assembliesPath(library)}/${uuid}`, { key: alice.key, body });
    const taken = await patch(b.uuid, { pocket_number: 1 });
    assert.equal(taken.status, 400, taken.text);
    assert.deepEqual(
      fields(taken).map((f) => [f.field, f.code]),
      [["body.pocket_number", "unique"]],
    );
    // its own number again, or a whole assembly read back with it, is no clash
    assert.equal((await patch(b.uuid, { pocket_number: 2, name: "Renamed" })).status, 200);
    const moved = await patch(a.uuid, { pocket_number: 40 });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.pocket_number, 40);
    const bad = await patch(a.uuid, { pocket_number: 0.5 });
    assert.deepEqual(
      fields(bad).map((f) => [f.field, f.code]),
      [["body.pocket_number", "integer"]],
    );
    const removed = await patch(a.uuid, { pocket_number: null });
    assert.equal(removed.status, 200, removed.text);
    assert.equal("pocket_number" in removed.body, false);
    assert.deepEqual(await readBack(library), [undefined, 2]);
  });

  it("is documented in the OpenAPI document as an extension, a whole number 1..9999", async () => {
    const res = await api.request<{ components: { schemas: Record<string, { properties: Record<string, Json> }> } }>(
      "GET",
      `${API_BASE_PATH}/openapi.json`,
    );
    assert.equal(res.status, 200);
    for (const schema of ["Assembly", "AssemblyPatch", "CatalogueAssembly"]) {
      const property = res.body.components.schemas[schema]?.properties.pocket_number;
      assert.ok(property, schema);
      assert.match(String(property.description), /^an extension: the tool's T number/, schema);
      assert.equal(JSON.stringify(property).includes('"maximum":9999'), true, schema);
    }
  });
});
