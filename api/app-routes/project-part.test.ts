import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { saveWorkpiece } from "../../db/queries/workpieces.ts";
import { APP_ROUTES_PATH } from "../../http/base-path.ts";
import { startTestApi, type TestApi } from "../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../test/support/database.ts";
import { asUser } from "../../test/support/as-user.ts";
import { partC } from "../../test/support/fixture-workpiece.ts";
import { givePassword, signIn, type TestSession } from "../../test/support/sessions.ts";
import { createTestUser, type TestUser } from "../../test/support/users.ts";

interface PartAnswer {
  part: { file_name: string | null; bbox: { min: number[]; max: number[]; size: number[] }; face_count: number } | null;
  stock_offsets: Record<string, number> | null;
  planned: boolean;
}

const OFFSETS = { minus_x: 1, plus_x: 2, minus_y: 3, plus_y: 4, minus_z: 8.5, plus_z: 0 };

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
let aliceSession: TestSession;
let withPart = "";
let bare = "";
/** partC's size, as the fixture was read */
let size: number[] = [];

const partOf = (session: TestSession, id: string) =>
  session.request<PartAnswer>("GET", `${APP_ROUTES_PATH}/projects/${id}/part`);

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  await givePassword(db.owner, alice.id);
  aliceSession = await signIn(api, alice.email);
  const create = async (user: TestUser) => {
    const res = await api.request<{ id: string }>("POST", "/projects", {
      key: user.key,
      body: { name: "P", customer: "" },
    });
    assert.equal(res.status, 201, res.text);
    return res.body.id;
  };
  withPart = await create(alice);
  bare = await create(alice);
  const part = await partC();
  size = part.ingested.bbox.max.map((max, i) => max - (part.ingested.bbox.min[i] as number));
  await asUser(api.pool, alice, (client) =>
    saveWorkpiece(client, withPart, part.ingested, part.original, part.glb, part.png, { filename: "partC.stl" }),
  );
});
after(async () => {
  await api?.close();
  await db?.drop();
});

describe("a project's part and stock for the project page", () => {
  it("answers the part's size and no stock before one is set, then the offsets set", async () => {
    const first = await partOf(aliceSession, withPart);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.part?.file_name, "partC.stl");
    assert.deepEqual(first.body.part?.bbox.size, size);
    assert.equal(first.body.stock_offsets, null);
    assert.equal(first.body.planned, false, "a job not planned yet");
    const stock = await api.request("POST", `/projects/${withPart}/stock/bounding-box`, {
      key: alice.key,
      body: OFFSETS,
    });
    assert.equal(stock.status, 200, stock.text);
    assert.deepEqual((await partOf(aliceSession, withPart)).body.stock_offsets, OFFSETS);
  });

  it("answers null for a project without a part", async () => {
    const res = await partOf(aliceSession, bare);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { part: null, stock_offsets: null, planned: false });
  });

  it("answers 404 for another user's project and an unknown one, 400 for an id that is not one", async () => {
    const bobs = await api.request<{ id: string }>("POST", "/projects", {
      key: bob.key,
      body: { name: "B", customer: "" },
    });
    for (const id of [bobs.body.id, "00000000-0000-4000-8000-000000000000"]) {
      const res = await aliceSession.request<{ detail: { code: string } }>(
        "GET",
        `${APP_ROUTES_PATH}/projects/${id}/part`,
      );
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.detail.code, "not_found");
    }
    const bad = await partOf(aliceSession, "not-a-uuid");
    assert.equal(bad.status, 400, bad.text);
  });

  it("answers 401 without a session, and to an API key (the app's routes take the session only)", async () => {
    const none = await api.request("GET", `${APP_ROUTES_PATH}/projects/${withPart}/part`);
    assert.equal(none.status, 401, none.text);
    const key = await api.request("GET", `${APP_ROUTES_PATH}/projects/${withPart}/part`, { key: alice.key });
    assert.equal(key.status, 401, key.text);
  });
});
