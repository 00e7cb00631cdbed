/**
 * The starter library in a user's equipment library (app_private.create_user,
 * app_private.add_starter_assemblies), read back through the real API: every new user's default
 * library holds it with ids of the user's own, its holders and tools are the user's items, adding
 * it again adds nothing, and what a user deleted comes back.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { addStarterAssemblies, findUserLibrary } from "../../db/queries/users.ts";
import { assemblyCuttingTool, validateAssembly, type Assembly } from "../../kernel/tools/assembly.ts";
import { starterLibrary } from "../../kernel/tools/catalogue/starter-library.ts";
import { UUID_PATTERN } from "../../kernel/tools/uuid.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface Library {
  id: string;
  library: { name: string; assemblies: Assembly[] };
  is_default: boolean;
}

interface Page {
  items: { uuid: string }[];
  next_cursor: string | null;
}

const STARTER = starterLibrary();

let db: TestDatabase;
let api: TestApi;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
});
after(async () => {
  await api.close();
  await db.drop();
});

async function defaultLibrary(user: TestUser): Promise<Library> {
  const list = await api.request<{ items: { id: string; is_default: boolean }[] }>("GET", "/libraries/equipment", {
    key: user.key,
  });
  assert.equal(list.status, 200, list.text);
  const id = list.body.items.find((l) => l.is_default)?.id;
  assert.ok(id, "a default library");
  const res = await api.request<Library>("GET", `/libraries/equipment/${id}`, { key: user.key });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** every uuid of a holder or tool list, following the cursor */
async function itemIds(user: TestUser, kind: "holders" | "tools"): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  do {
    const page: { status: number; text: string; body: Page } = await api.request<Page>(
      "GET",
      `/libraries/${kind}?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
      { key: user.key },
    );
    assert.equal(page.status, 200, page.text);
    for (const item of page.body.items) ids.add(item.uuid);
    cursor = page.body.next_cursor;
  } while (cursor);
  return ids;
}

/** the assemblies' bodies with their own uuid left out: what the starter set defines */
const withoutUuid = (assemblies: readonly Assembly[]) => assemblies.map(({ uuid: _, ...rest }) => rest);

describe("the starter library", { concurrency: true }, () => {
  it("is in every new user's default library, in order, under assembly ids of the user's own, with its holders and tools in the user's items", async () => {
    const [ada, bea] = [await createTestUser(db.owner, "ada"), await createTestUser(db.owner, "bea")];
    const [mine, theirs] = [await defaultLibrary(ada), await defaultLibrary(bea)];
    assert.deepEqual(
      withoutUuid(mine.library.assemblies),
      withoutUuid(STARTER),
      "the starter assemblies, in slot order",
    );
    for (const assembly of mine.library.assemblies) {
      assert.match(assembly.uuid, UUID_PATTERN);
      assert.ok(validateAssembly(assembly).ok, assembly.name);
    }
    const own = new Set(mine.library.assemblies.map((a) => a.uuid));
    assert.equal(own.size, STARTER.length);
    assert.ok(
      STARTER.every((a) => !own.has(a.uuid)),
      "not the catalogue's assembly ids",
    );
    assert.ok(
      theirs.library.assemblies.every((a) => !own.has(a.uuid)),
      "another user's ids are theirs",
    );
    // the ids are named by user and item: the database says the same for each
    const { rows } = await db.owner.query<{ id: string }>(
      "select app_private.starter_assembly_id($1, catalogue_id) as id from app_private.starter_assemblies order by position",
      [ada.id],
    );
    assert.deepEqual(
      rows.map((r) => r.id),
      mine.library.assemblies.map((a) => a.uuid),
    );

    const holders = new Set(
      STARTER.map((a) => a.components[0]!).flatMap((c) =>
        c.component_type === "adaptive_item" ? [c.adaptive_item.uuid!] : [],
      ),
    );
    const tools = new Set(STARTER.map((a) => assemblyCuttingTool(a)!.uuid!));
    assert.deepEqual(await itemIds(ada, "holders"), holders);
    assert.deepEqual(await itemIds(ada, "tools"), tools);
    const one = [...tools][0]!;
    const tool = await api.request<{ uuid: string }>("GET", `/libraries/tools/${one}`, { key: ada.key });
    assert.deepEqual(
      tool.body,
      STARTER.map(assemblyCuttingTool).find((t) => t?.uuid === one),
    );
  });

  it("is left out for a user created with an empty library", async () => {
    const user = await createTestUser(db.owner, "empty", { emptyLibrary: true });
    const library = await defaultLibrary(user);
    assert.deepEqual(library.library.assemblies, []);
    assert.equal((await itemIds(user, "holders")).size, 0);
    assert.equal((await itemIds(user, "tools")).size, 0);
  });

  it("adds to another library only what it lacks: nothing the second time, and an assembly or tool the user deleted comes back", async () => {
    const user = await createTestUser(db.owner, "again");
    const created = await api.request<{ id: string }>("POST", "/libraries/equipment", {
      key: user.key,
      body: { library: { name: "Second" } },
    });
    assert.equal(created.status, 201, created.text);
    const second = created.body.id;
    const first = await addStarterAssemblies(db.owner, second);
    assert.equal(first.length, STARTER.length);
    assert.deepEqual(await addStarterAssemblies(db.owner, second), [], "nothing the second time");
    const library = (await api.request<Library>("GET", `/libraries/equipment/${second}`, { key: user.key })).body;
    assert.deepEqual(
      library.library.assemblies.map((a) => a.uuid),
      first.map((a) => a.id),
    );
    const defaults = await defaultLibrary(user);
    assert.deepEqual(
      library.library.assemblies.map((a) => a.uuid),
      defaults.library.assemblies.map((a) => a.uuid),
      "the same ids in every library of the user",
    );

    // an assembly deleted (its tool with it: sync_library), another left without its tool
    // (the tool deleted, sync_assemblies), a third edited
    const [gone, toolless, edited] = [
      library.library.assemblies[3]!,
      library.library.assemblies[40]!,
      library.library.assemblies[50]!,
    ];
    assert.equal(
      (await api.request("DELETE", `/libraries/equipment/${second}/assemblies/${gone.uuid}`, { key: user.key })).status,
      204,
    );
    const toollessTool = assemblyCuttingTool(toolless)!.uuid!;
    assert.equal((await api.request("DELETE", `/libraries/tools/${toollessTool}`, { key: user.key })).status, 204);
    const renamed = await api.request("PATCH", `/libraries/equipment/${second}/assemblies/${edited.uuid}`, {
      key: user.key,
      body: { name: "My favourite drill" },
    });
    assert.equal(renamed.status, 200, renamed.text);

    const back = await addStarterAssemblies(db.owner, second);
    assert.deepEqual(back.map((a) => a.id).sort(), [gone.uuid, toolless.uuid].sort());
    const after = (await api.request<Library>("GET", `/libraries/equipment/${second}`, { key: user.key })).body.library
      .assemblies;
    assert.equal(after.length, STARTER.length);
    assert.deepEqual(
      after.find((a) => a.uuid === gone.uuid),
      gone,
      "the deleted assembly is back, at the end",
    );
    assert.equal(after.at(-1)?.uuid, gone.uuid);
    assert.deepEqual(
      after.find((a) => a.uuid === toolless.uuid),
      toolless,
      "the assembly has its tool again, in its slot",
    );
    assert.equal(after.find((a) => a.uuid === edited.uuid)?.name, "My favourite drill", "an edit is kept");
    assert.ok((await itemIds(user, "tools")).has(toollessTool), "the deleted tool is the user's again");
    assert.ok((await itemIds(user, "tools")).has(assemblyCuttingTool(gone)!.uuid!));
    assert.deepEqual(await addStarterAssemblies(db.owner, second), []);
  });

  it("finds a user's libraries only: another user's library id is not theirs", async () => {
    const [owner, other] = [
      await createTestUser(db.owner, "owner", { emptyLibrary: true }),
      await createTestUser(db.owner, "other", { emptyLibrary: true }),
    ];
    const library = await findUserLibrary(db.owner, owner.id);
    assert.ok(library);
    assert.equal(library.name, "Default library");
    assert.equal(await findUserLibrary(db.owner, other.id, library.id), null);
    assert.deepEqual(await findUserLibrary(db.owner, owner.id, library.id), library);
  });
});
