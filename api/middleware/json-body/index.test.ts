import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { startTestApi, type TestApi } from "../../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/support/database.ts";
import { createTestUser, type TestUser } from "../../../test/support/users.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;

async function projectCount(): Promise<number> {
  const { rows } = await db.owner.query<{ n: number }>(
    "select count(*)::int as n from app_public.projects where user_id = $1",
    [alice.id],
  );
  return rows[0]?.n ?? -1;
}

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { env: { JSON_BODY_LIMIT_BYTES: "1024" } });
  alice = await createTestUser(db.owner, "alice");
});
after(async () => {
  await api.close();
  await db.drop();
});

describe("json-body middleware", () => {
  it("accepts a JSON body of exactly JSON_BODY_LIMIT_BYTES", async () => {
    const body = { name: "Fits", customer: "", notes: "" };
    body.notes = "n".repeat(1024 - JSON.stringify(body).length);
    assert.equal(JSON.stringify(body).length, 1024);
    const res = await api.request("POST", "/projects", { key: alice.key, body });
    assert.equal(res.status, 201);
  });

  it("answers 413 payload_too_large for a body over JSON_BODY_LIMIT_BYTES and creates nothing", async () => {
    const before = await projectCount();
    const body = { name: "Too big", customer: "", notes: "" };
    body.notes = "n".repeat(1025 - JSON.stringify(body).length);
    assert.equal(JSON.stringify(body).length, 1025);
    const res = await api.request<ErrorBody>("POST", "/projects", { key: alice.key, body });
    assert.equal(res.status, 413);
    assert.equal(res.body.detail.code, "payload_too_large");
    assert.equal(res.body.detail.details.limit_bytes, 1024);
    assert.equal(res.body.detail.request_id, res.headers.get("x-request-id"));
    assert.equal(await projectCount(), before);
  });

  it("answers 413 payload_too_large for a chunked body without a Content-Length", async () => {
    const chunk = new TextEncoder().encode(JSON.stringify({ name: "Chunked", customer: "", notes: "n".repeat(4000) }));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await fetch(`${api.origin}/backend-api/api/public/v1/projects`, {
      method: "POST",
      headers: { "X-API-Key": alice.key, "Content-Type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit & { duplex: "half" });
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as ErrorBody).detail.code, "payload_too_large");
  });

  it("answers 415 unsupported_media_type for a text/plain body on a JSON route", async () => {
    const before = await projectCount();
    const res = await api.request<ErrorBody>("POST", "/projects", {
      key: alice.key,
      raw: { body: JSON.stringify({ name: "Plain", customer: "C" }), contentType: "text/plain" },
    });
    assert.equal(res.status, 415);
    assert.equal(res.body.detail.code, "unsupported_media_type");
    assert.equal(res.body.detail.details.content_type, "text/plain");
    assert.equal(await projectCount(), before);
  });

  it("accepts application/json with a charset and +json media types", async () => {
    for (const contentType of ["application/json; charset=utf-8", "application/merge-patch+json"]) {
      const res = await api.request("POST", "/projects", {
        key: alice.key,
        raw: { body: JSON.stringify({ name: contentType, customer: "C" }), contentType },
      });
      assert.equal(res.status, 201, contentType);
    }
  });

  it("answers 400 malformed_json for a body that is not valid JSON", async () => {
    for (const text of ['{"name": "Broken", ', "{name: 'x'}", "not json at all"]) {
      const res = await api.request<ErrorBody>("POST", "/projects", {
        key: alice.key,
        raw: { body: text, contentType: "application/json" },
      });
      assert.equal(res.status, 400, text);
      assert.equal(res.body.detail.code, "malformed_json", text);
    }
  });

  it("accepts a gzip-encoded JSON body", async () => {
    const res = await api.request("POST", "/projects", {
      key: alice.key,
      raw: { body: gzipSync(JSON.stringify({ name: "Gzipped", customer: "C" })), contentType: "application/json" },
      headers: { "Content-Encoding": "gzip" },
    });
    assert.equal(res.status, 201);
  });

  it("answers 400 malformed_body, not 500, for a body that does not decompress as its Content-Encoding says, and creates nothing", async () => {
    const before = await projectCount();
    const text = JSON.stringify({ name: "Squeezed", customer: "C" });
    const cases: [string, Buffer][] = [
      ["gzip", Buffer.from(text)],
      ["gzip", gzipSync(text).subarray(0, 20)],
      ["deflate", Buffer.from("{")],
      ["br", Buffer.from(text)],
    ];
    for (const [encoding, body] of cases) {
      const res = await api.request<ErrorBody>("POST", "/projects", {
        key: alice.key,
        raw: { body, contentType: "application/json" },
        headers: { "Content-Encoding": encoding },
      });
      assert.equal(res.status, 400, `${encoding}: ${res.text}`);
      assert.equal(res.body.detail.code, "malformed_body");
      assert.equal(res.body.detail.details.content_encoding, encoding);
      assert.equal(res.body.detail.request_id, res.headers.get("x-request-id"));
    }
    assert.equal(await projectCount(), before);
  });

  it("accepts a body nested 64 levels deep and answers 400 json_too_deep for 65, creating nothing", async () => {
    // root 1, remote_data 2, then arrays
    const body = (arrays: number) =>
      `{"library":{"name":"Deep"},"remote_data":{"x":${"[".repeat(arrays)}${"]".repeat(arrays)}}}`;
    const fits = await api.request("POST", "/libraries/equipment", {
      key: alice.key,
      raw: { body: body(62), contentType: "application/json" },
    });
    assert.equal(fits.status, 201, fits.text);
    const libraries = await db.owner.query<{ n: number }>(
      "select count(*)::int as n from app_public.equipment_libraries where user_id = $1",
      [alice.id],
    );
    const res = await api.request<ErrorBody>("POST", "/libraries/equipment", {
      key: alice.key,
      raw: { body: body(63), contentType: "application/json" },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.detail.code, "json_too_deep");
    assert.equal(res.body.detail.details.max_depth, 64);
    const afterwards = await db.owner.query<{ n: number }>(
      "select count(*)::int as n from app_public.equipment_libraries where user_id = $1",
      [alice.id],
    );
    assert.deepEqual(afterwards.rows, libraries.rows);
  });

  it("refuses a __proto__ key anywhere in a body with 400 invalid_parameter naming it, storing nothing", async () => {
    const libraries = async () =>
      (
        await db.owner.query<{ remote_data: unknown }>(
          "select remote_data from app_public.equipment_libraries where user_id = $1 order by id",
          [alice.id],
        )
      ).rows;
    const created = await api.request<{ id: string }>("POST", "/libraries/equipment", {
      key: alice.key,
      body: { library: { name: "Kept" }, remote_data: { a: 1 } },
    });
    assert.equal(created.status, 201, created.text);
    const before = await libraries();
    const cases: [string, string, string, string][] = [
      [
        "POST",
        "/libraries/equipment",
        '{"library":{"name":"P"},"remote_data":{"__proto__":{"admin":true}}}',
        "body.remote_data.__proto__",
      ],
      [
        "POST",
        "/libraries/equipment",
        '{"library":{"name":"P"},"remote_data":{"x":[1,{"__proto__":{}}]}}',
        "body.remote_data.x.1.__proto__",
      ],
      [
        "PATCH",
        `/libraries/equipment/${created.body.id}`,
        '{"remote_data":{"b":2,"__proto__":null}}',
        "body.remote_data.__proto__",
      ],
      ["POST", "/projects", '{"__proto__":{"name":"P"},"name":"P"}', "body.__proto__"],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await api.request<ErrorBody>(method, path, {
        key: alice.key,
        raw: { body, contentType: "application/json" },
      });
      assert.equal(res.status, 400, `${body}: ${res.text}`);
      assert.equal(res.body.detail.code, "invalid_parameter", body);
      assert.deepEqual(
        (res.body.detail.details.fields as { field: string; code: string }[]).map((f) => [f.field, f.code]),
        [[field, "invalid_key"]],
        body,
      );
    }
    assert.deepEqual(await libraries(), before);
  });

  it("answers 400 invalid_parameter naming the body for POST /projects without a body", async () => {
    const before = await projectCount();
    const res = await api.request<ErrorBody>("POST", "/projects", { key: alice.key });
    assert.equal(res.status, 400);
    assert.equal(res.body.detail.code, "invalid_parameter");
    const fields = res.body.detail.details.fields as { field: string }[];
    assert.deepEqual(
      fields.map((f) => f.field),
      ["body"],
    );
    assert.equal(await projectCount(), before);
  });
});
