import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { startTestApi, type TestApi } from "../../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/support/database.ts";
import { createTestUser, type TestUser } from "../../../test/support/users.ts";

interface FieldIssue {
  field: string;
  code: string;
  message: string;
}

interface ErrorBody {
  detail: { code: string; message: string; details: { fields?: FieldIssue[] }; request_id: string };
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;

function fieldsOf(res: { status: number; body: ErrorBody }): FieldIssue[] {
  assert.equal(res.status, 400);
  assert.equal(res.body.detail.code, "invalid_parameter");
  const fields = res.body.detail.details.fields;
  assert.ok(Array.isArray(fields), "details.fields is a list");
  for (const issue of fields) {
    assert.equal(typeof issue.field, "string");
    assert.equal(typeof issue.code, "string");
    assert.equal(typeof issue.message, "string");
  }
  return fields;
}

function byField(fields: FieldIssue[]): Map<string, FieldIssue> {
  return new Map(fields.map((f) => [f.field, f]));
}

async function projectCount(): Promise<number> {
  const { rows } = await db.owner.query<{ n: number }>(
    "select count(*)::int as n from app_public.projects where user_id = $1",
    [alice.id],
  );
  return rows[0]?.n ?? -1;
}

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
});
after(async () => {
  await api.close();
  await db.drop();
});

describe("validate middleware", () => {
  it("names every bad body field at once: wrong types, unknown fields and missing required ones", async () => {
    const before = await projectCount();
    const res = await api.request<ErrorBody>("POST", "/projects", {
      key: alice.key,
      body: { customer: 42, contact_email: "not-an-email", notes: ["a"], colour: "red", size: 3 },
    });
    const fields = byField(fieldsOf(res));
    assert.deepEqual([...fields.keys()].sort(), [
      "body.colour",
      "body.contact_email",
      "body.customer",
      "body.name",
      "body.notes",
      "body.size",
    ]);
    assert.equal(fields.get("body.colour")?.code, "unknown_field");
    assert.equal(fields.get("body.size")?.code, "unknown_field");
    assert.match(fields.get("body.colour")?.message ?? "", /colour/);
    assert.equal(fields.get("body.customer")?.code, "invalid_type");
    assert.equal(fields.get("body.name")?.code, "invalid_type", "a missing required field");
    assert.match(res.body.detail.message, /body\.name/);
    assert.equal(await projectCount(), before, "nothing is created");
  });

  it("names the path, query and body fields together when all three are wrong", async () => {
    const res = await api.request<ErrorBody>("PATCH", "/projects/nope?verbose=1", {
      key: alice.key,
      body: { name: "" },
    });
    const fields = byField(fieldsOf(res));
    assert.deepEqual([...fields.keys()].sort(), ["body.name", "path.project_id", "query.verbose"]);
    assert.equal(fields.get("query.verbose")?.code, "unknown_field");
  });

  it("answers 400 naming query.limit for ?limit=0, ?limit=101 and ?limit=abc on GET /projects", async () => {
    for (const limit of ["0", "101", "abc", "1.5", "-3"]) {
      const res = await api.request<ErrorBody>("GET", `/projects?limit=${limit}`, { key: alice.key });
      const fields = fieldsOf(res);
      assert.deepEqual(
        fields.map((f) => f.field),
        ["query.limit"],
        `limit=${limit}`,
      );
    }
  });

  it("accepts ?limit=1 and ?limit=100 on GET /projects", async () => {
    for (const limit of ["1", "100"]) {
      const res = await api.request("GET", `/projects?limit=${limit}`, { key: alice.key });
      assert.equal(res.status, 200, `limit=${limit}`);
    }
  });

  it("answers 400 naming query.cursor for a garbage ?cursor=", async () => {
    const forged = Buffer.from("v1:-5").toString("base64url");
    for (const cursor of ["garbage", "%21%21%21", forged, "x".repeat(201)]) {
      const res = await api.request<ErrorBody>("GET", `/projects?cursor=${cursor}`, { key: alice.key });
      const fields = fieldsOf(res);
      assert.deepEqual(
        fields.map((f) => f.field),
        ["query.cursor"],
        `cursor=${cursor}`,
      );
    }
  });

  it("answers 400 naming path.project_id for a project id that is not a UUID", async () => {
    for (const id of ["not-a-uuid", "12345", `${randomUUID()}x`]) {
      const res = await api.request<ErrorBody>("GET", `/projects/${id}`, { key: alice.key });
      const fields = fieldsOf(res);
      assert.deepEqual(
        fields.map((f) => f.field),
        ["path.project_id"],
        id,
      );
    }
  });

  it("lets a well-formed request through to the handler", async () => {
    const res = await api.request<{ id: string }>("GET", `/projects/${randomUUID()}`, { key: alice.key });
    assert.equal(res.status, 404, "the handler ran and found nothing");
  });
});
