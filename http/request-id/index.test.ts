import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApi, type TestApi } from "../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../test/support/database.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}

const FRESH_ID = /^req_[0-9a-f]{32}$/;

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

describe("request-id middleware", () => {
  it("answers with a fresh X-Request-Id when the client sends none, a different one each time", async () => {
    const first = await api.request("GET", "/healthz");
    const second = await api.request("GET", "/healthz");
    const a = first.headers.get("x-request-id");
    const b = second.headers.get("x-request-id");
    assert.match(a ?? "", FRESH_ID);
    assert.match(b ?? "", FRESH_ID);
    assert.notEqual(a, b);
  });

  it("echoes a sane client id, up to 128 characters", async () => {
    for (const offered of ["gw-01HZX7.abc:def_42", "12345678", "a".repeat(128)]) {
      const res = await api.request("GET", "/healthz", { headers: { "X-Request-Id": offered } });
      assert.equal(res.headers.get("x-request-id"), offered, `offered ${offered}`);
    }
  });

  it("replaces a client id that is too short, too long, holds spaces or odd characters", async () => {
    for (const offered of [
      "short",
      "1234567",
      "a".repeat(129),
      "x".repeat(500),
      "has some spaces",
      "semi;colon-id",
      "slash/in/the/id",
    ]) {
      const res = await api.request("GET", "/healthz", { headers: { "X-Request-Id": offered } });
      const id = res.headers.get("x-request-id");
      assert.notEqual(id, offered, `offered ${offered}`);
      assert.match(id ?? "", FRESH_ID, `offered ${offered}`);
    }
  });

  it("repeats the header's id as detail.request_id in an error body", async () => {
    const fresh = await api.request<ErrorBody>("GET", "/projects");
    assert.equal(fresh.status, 401);
    assert.match(fresh.headers.get("x-request-id") ?? "", FRESH_ID);
    assert.equal(fresh.body.detail.request_id, fresh.headers.get("x-request-id"));

    const echoed = await api.request<ErrorBody>("GET", "/no/such/route", {
      headers: { "X-Request-Id": "trace-0000-1111" },
    });
    assert.equal(echoed.status, 404);
    assert.equal(echoed.headers.get("x-request-id"), "trace-0000-1111");
    assert.equal(echoed.body.detail.request_id, "trace-0000-1111");

    const replaced = await api.request<ErrorBody>("GET", "/projects", { headers: { "X-Request-Id": "bad id" } });
    assert.equal(replaced.status, 401);
    assert.equal(replaced.body.detail.request_id, replaced.headers.get("x-request-id"));
    assert.notEqual(replaced.body.detail.request_id, "bad id");
  });
});
