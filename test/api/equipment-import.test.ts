/**
 * POST /libraries/equipment/{library_id}/import/fusion: a Fusion 360 tool library file becomes
 * the library's assemblies (and the user's tools and holders), the tools the parser cannot use
 * listed with the reason; the same file again adds nothing; a file that is not a Fusion library
 * is a 400 with the parser's message and nothing changes; another user's library is 404.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { repoRoot } from "../../config/env.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { fileUpload } from "../support/multipart.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

const SAMPLE = fs.readFileSync(path.join(repoRoot, "kernel/tools/catalogue/testdata/fusion-library-sample.json"));

interface ImportBody {
  imported: number;
  skipped: { index: number; reason: string }[];
  assembly_count: number;
  detail: { code: string; message: string };
}

interface LibraryBody {
  id: string;
  library: {
    assemblies: {
      uuid: string;
      pocket_number?: number;
      components: { component_type: string; parametric_cutting_tool?: { manufacturer?: string } }[];
    }[];
  };
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  [alice, bob] = await Promise.all([
    createTestUser(db.owner, "alice", { emptyLibrary: true }),
    createTestUser(db.owner, "bob", { emptyLibrary: true }),
  ]);
});
after(async () => {
  await api.close();
  await db.drop();
});

async function newLibrary(user: TestUser, name: string): Promise<string> {
  const res = await api.request<{ id: string }>("POST", "/libraries/equipment", {
    key: user.key,
    body: { library: { name } },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

function upload(user: TestUser, libraryId: string, data: Buffer, query = "") {
  return api.request<ImportBody>("POST", `/libraries/equipment/${libraryId}/import/fusion${query}`, {
    key: user.key,
    raw: fileUpload(data, "tools.json"),
  });
}

describe("Fusion 360 import into an equipment library", () => {
  it("adds each usable tool as an assembly, lists the skipped ones, and saves the tools", async () => {
    const id = await newLibrary(alice, "Imported");
    const res = await upload(alice, id, SAMPLE, "?manufacturer=Acme%20Cutters");
    assert.equal(res.status, 200, res.text);
    // the sample's 12 tools: 8 usable, 4 skipped (as cli catalogue import reports them)
    assert.equal(res.body.imported, 8);
    assert.equal(res.body.skipped.length, 4);
    assert.match(res.body.skipped[0]!.reason, /unsupported tool type "radius mill"/);
    assert.equal(res.body.skipped[0]!.index, 5);
    assert.equal(res.body.assembly_count, 8);
    const read = await api.request<LibraryBody>("GET", `/libraries/equipment/${id}`, { key: alice.key });
    const assemblies = read.body.library.assemblies;
    assert.equal(assemblies.length, 8, "stored");
    const tool = assemblies[0]!.components.at(-1)!;
    assert.equal(tool.component_type, "parametric_cutting_tool");
    assert.equal(tool.parametric_cutting_tool?.manufacturer, "Acme Cutters");

    const tools = await api.request<{ items: unknown[] }>("GET", "/libraries/tools?limit=100", { key: alice.key });
    assert.equal(tools.body.items.length, 8, "each tool saved in the user's tool library");

    const again = await upload(alice, id, SAMPLE, "?manufacturer=Acme%20Cutters");
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.imported, 0, "the same file again adds nothing");
    assert.equal(again.body.skipped.length, 12);
    assert.equal(again.body.assembly_count, 8);
  });

  it("drops a post-process number another assembly of the library has", async () => {
    const id = await newLibrary(alice, "Twice");
    await upload(alice, id, SAMPLE, "?manufacturer=Maker%20One");
    const pocketsOf = async () =>
      (await api.request<LibraryBody>("GET", `/libraries/equipment/${id}`, { key: alice.key })).body.library.assemblies
        .map((a) => a.pocket_number)
        .filter((p) => p !== undefined);
    const pockets = await pocketsOf();
    assert.ok(pockets.length > 0, "the sample carries T numbers");
    const second = await upload(alice, id, SAMPLE, "?manufacturer=Maker%20Two");
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.imported, 8, "another maker's ids: new assemblies");
    assert.deepEqual(await pocketsOf(), pockets, "the second file's numbers were taken, so dropped");
  });

  for (const [label, data, message] of [
    ["not JSON", Buffer.from("this is not json"), /^the file is not JSON/],
    ["JSON without data", Buffer.from('{"tools": []}'), /not a Fusion 360 tool library/],
    ["an empty file", Buffer.alloc(0), /^the file is not JSON/],
  ] as const) {
    it(`refuses ${label} with 400 fusion_library_invalid and stores nothing`, async () => {
      const id = await newLibrary(alice, `Bad ${label}`);
      const res = await upload(alice, id, data);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.detail.code, "fusion_library_invalid");
      assert.match(res.body.detail.message, message);
      const read = await api.request<LibraryBody>("GET", `/libraries/equipment/${id}`, { key: alice.key });
      assert.equal(read.body.library.assemblies.length, 0);
    });
  }

  it("answers 404 for another user's library and changes nothing", async () => {
    const id = await newLibrary(alice, "Alice's");
    const res = await upload(bob, id, SAMPLE);
    assert.equal(res.status, 404, res.text);
    const read = await api.request<LibraryBody>("GET", `/libraries/equipment/${id}`, { key: alice.key });
    assert.equal(read.body.library.assemblies.length, 0);
    const tools = await api.request<{ items: unknown[] }>("GET", "/libraries/tools?limit=100", { key: bob.key });
    assert.equal(tools.body.items.length, 0);
  });
});
