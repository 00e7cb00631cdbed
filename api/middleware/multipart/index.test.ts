import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { startTestApi, type TestApi } from "../../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/support/database.ts";
import { multipart } from "../../../test/support/multipart.ts";
import { createTestUser, type TestUser } from "../../../test/support/users.ts";
import { json } from "../../reply.ts";
import { defineRoute, type RouteSpec } from "../../route.ts";
import { routes as defaultRoutes } from "../../routes/index.ts";
import { NoQuery } from "../../schemas/common.ts";

interface Echo {
  field: string;
  filename: string | null;
  content_type: string;
  size: number;
  sha256: string;
  calls: number;
}

let calls = 0;

const testRoutes: RouteSpec[] = [
  defineRoute({
    method: "post",
    path: "/test/upload",
    operationId: "testUpload",
    summary: "echoes what the multipart middleware handed on",
    tag: "Test",
    scopes: ["cam:write"],
    query: NoQuery,
    upload: { field: "file", description: "anything" },
    idempotent: true,
    responses: { 201: { description: "what arrived" } },
    async handler({ file }) {
      calls += 1;
      assert.ok(file);
      return json(201, {
        field: file.field,
        filename: file.filename,
        content_type: file.contentType,
        size: file.size,
        sha256: createHash("sha256").update(file.bytes).digest("hex"),
        calls,
      } satisfies Echo);
    },
  }),
];

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { routes: [...defaultRoutes, ...testRoutes], env: { UPLOAD_LIMIT_BYTES: "4096" } });
  alice = await createTestUser(db.owner, "alice");
});
after(async () => {
  await api.close();
  await db.drop();
});

const post = (raw: { body: Buffer; contentType: string }, headers: Record<string, string> = {}) =>
  api.request<Echo & { detail: { code: string } }>("POST", "/test/upload", { key: alice.key, raw, headers });

describe("multipart uploads", () => {
  it("hand the handler the one file with its name, type and bytes", async () => {
    const data = Buffer.from("solid cube\nendsolid cube\n");
    const res = await post(multipart([{ name: "file", filename: "cube.stl", contentType: "model/stl", data }]));
    assert.equal(res.status, 201);
    assert.deepEqual(
      { ...res.body, calls: 0 },
      {
        field: "file",
        filename: "cube.stl",
        content_type: "model/stl",
        size: data.length,
        sha256: createHash("sha256").update(data).digest("hex"),
        calls: 0,
      },
    );
  });

  it("take a file of exactly the limit and refuse one byte more with 413", async () => {
    assert.equal((await post(multipart([{ name: "file", filename: "a", data: Buffer.alloc(4096) }]))).status, 201);
    const over = await post(multipart([{ name: "file", filename: "a", data: Buffer.alloc(4097) }]));
    assert.equal(over.status, 413);
    assert.equal(over.body.detail.code, "payload_too_large");
  });

  it("replay an upload with the same Idempotency-Key and file, and refuse the key with another file", async () => {
    const first = await post(multipart([{ name: "file", filename: "a.stl", data: "one" }]), {
      "Idempotency-Key": "upload-1",
    });
    assert.equal(first.status, 201);
    const replay = await post(multipart([{ name: "file", filename: "a.stl", data: "one" }]), {
      "Idempotency-Key": "upload-1",
    });
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get("idempotency-replayed"), "true");
    assert.equal(replay.body.calls, first.body.calls, "the handler did not run again");
    const other = await post(multipart([{ name: "file", filename: "a.stl", data: "two" }]), {
      "Idempotency-Key": "upload-1",
    });
    assert.equal(other.status, 422);
    assert.equal(other.body.detail.code, "idempotency_key_reused");
  });
});
