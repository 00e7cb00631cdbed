/**
 * Presigned file URLs under attack: every way of changing a URL the API gave out is refused in
 * the error envelope and serves no byte of any blob; a URL signed in the past is expired; a
 * deleted project's URLs stop working.
 */
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import { presignWorkpiece, saveWorkpiece, type WorkpieceUrls } from "../../db/queries/workpieces.ts";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { startTestApi, type TestApi, type TestResponse } from "../support/api.ts";
import { asUser } from "../support/as-user.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { renderThumbnail } from "../../kernel/mesh/thumbnail.ts";
import { partC } from "../support/fixture-workpiece.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
let aliceUrls: WorkpieceUrls;
let bobUrls: WorkpieceUrls;
let meshBytes: Buffer;

/** a workpiece of partC; `png`: a thumbnail of its own (blobs are shared per user by content) */
async function workpieceOf(
  user: TestUser,
  options: { ttlSeconds?: number; png?: Buffer } = {},
): Promise<{ project: string; urls: WorkpieceUrls }> {
  const project = await api.request<{ id: string }>("POST", "/projects", {
    key: user.key,
    body: { name: "Presigned", customer: "X" },
  });
  const part = await partC();
  const urls = await asUser(api.pool, user, async (client) => {
    const saved = await saveWorkpiece(
      client,
      project.body.id,
      part.ingested,
      part.original,
      part.glb,
      options.png ?? part.png,
    );
    return presignWorkpiece(
      client,
      saved!.workpiece,
      options.ttlSeconds === undefined
        ? { apiBasePath: API_BASE_PATH }
        : { ttlSeconds: options.ttlSeconds, apiBasePath: API_BASE_PATH },
    );
  });
  return { project: project.body.id, urls };
}

/** the URL with its parts changed */
function changed(url: string, change: { blob?: string; params?: Record<string, string | null>; raw?: string }): string {
  const parsed = new URL(url, "http://x");
  if (change.blob) parsed.pathname = parsed.pathname.replace(/[^/]+$/, change.blob);
  for (const [name, value] of Object.entries(change.params ?? {})) {
    if (value === null) parsed.searchParams.delete(name);
    else parsed.searchParams.set(name, value);
  }
  return `${parsed.pathname}${parsed.search}${change.raw ?? ""}`;
}

const blobOf = (url: string) => new URL(url, "http://x").pathname.split("/").at(-1)!;
const param = (url: string, name: string) => new URL(url, "http://x").searchParams.get(name)!;

function assertRefused(response: TestResponse<ErrorBody>, what: string, statuses: number[] = [403]): void {
  assert.ok(statuses.includes(response.status), `${what}: ${response.status} ${response.text.slice(0, 200)}`);
  assert.equal(typeof response.body.detail?.code, "string", what);
  assert.equal(response.body.detail.request_id, response.headers.get("x-request-id"), what);
  assert.ok(!response.bytes.includes(meshBytes.subarray(0, 64)), `${what}: no byte of the mesh`);
}

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  ({ urls: aliceUrls } = await workpieceOf(alice));
  ({ urls: bobUrls } = await workpieceOf(bob));
  meshBytes = (await partC()).glb;
});
after(async () => {
  await api?.close();
  await db?.drop();
});

describe("a presigned URL", () => {
  it("serves its blob without a key, exactly as given", async () => {
    const response = await api.request("GET", aliceUrls.mesh_url);
    assert.equal(response.status, 200);
    assert.deepEqual(response.bytes, meshBytes);
  });

  it("is refused with 403 invalid_signature for every changed signature character, purpose, expiry or blob", async () => {
    const signature = param(aliceUrls.mesh_url, "signature");
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < signature.length; i += 3) {
      const other = alphabet[(alphabet.indexOf(signature[i]!) + 1) % alphabet.length]!;
      const response = await api.request<ErrorBody>(
        "GET",
        changed(aliceUrls.mesh_url, { params: { signature: signature.slice(0, i) + other + signature.slice(i + 1) } }),
      );
      assertRefused(response, `signature character ${i}`);
      assert.equal(response.body.detail.code, "invalid_signature");
    }
    const expires = Number(param(aliceUrls.mesh_url, "expires"));
    const cases: [string, string][] = [
      [
        "the thumbnail's purpose with the mesh's signature",
        changed(aliceUrls.mesh_url, { params: { purpose: "thumbnail" } }),
      ],
      ["a purpose that is never signed", changed(aliceUrls.mesh_url, { params: { purpose: "brep" } })],
      ["a later expiry", changed(aliceUrls.mesh_url, { params: { expires: String(expires + 86_400) } })],
      ["an earlier expiry", changed(aliceUrls.mesh_url, { params: { expires: String(expires - 1) } })],
      [
        "the thumbnail's blob with the mesh's signature",
        changed(aliceUrls.mesh_url, { blob: blobOf(aliceUrls.thumbnail_url) }),
      ],
      ["another user's blob with one's own signature", changed(aliceUrls.mesh_url, { blob: blobOf(bobUrls.mesh_url) })],
      [
        "another user's signature on one's own blob",
        changed(aliceUrls.mesh_url, { params: { signature: param(bobUrls.mesh_url, "signature") } }),
      ],
    ];
    for (const [what, url] of cases) {
      const response = await api.request<ErrorBody>("GET", url);
      assertRefused(response, what, [403, 404]);
    }
  });

  it("answers malformed parameters with a 4xx in the envelope, never a 500", async () => {
    const cases: [string, string][] = [
      ["no signature", changed(aliceUrls.mesh_url, { params: { signature: null } })],
      ["no expiry", changed(aliceUrls.mesh_url, { params: { expires: null } })],
      ["no purpose", changed(aliceUrls.mesh_url, { params: { purpose: null } })],
      ["an empty signature", changed(aliceUrls.mesh_url, { params: { signature: "" } })],
      [
        "a truncated signature",
        changed(aliceUrls.mesh_url, { params: { signature: param(aliceUrls.mesh_url, "signature").slice(0, 20) } }),
      ],
      [
        "a signature with padding",
        changed(aliceUrls.mesh_url, { params: { signature: `${param(aliceUrls.mesh_url, "signature")}=` } }),
      ],
      ["a signature of 10 kB", changed(aliceUrls.mesh_url, { params: { signature: "A".repeat(10_000) } })],
      ["not base64url", changed(aliceUrls.mesh_url, { params: { signature: "!!!%%%***" } })],
      ["a signature given twice", `${aliceUrls.mesh_url}&signature=${param(aliceUrls.mesh_url, "signature")}`],
      ["an expiry that is not a number", changed(aliceUrls.mesh_url, { params: { expires: "tomorrow" } })],
      ["an expiry beyond 2^63", changed(aliceUrls.mesh_url, { params: { expires: "99999999999999999999999" } })],
      ["a negative expiry", changed(aliceUrls.mesh_url, { params: { expires: "-1" } })],
      ["a blob id that is not a UUID", changed(aliceUrls.mesh_url, { blob: "not-a-uuid" })],
      ["a blob id with a traversal", changed(aliceUrls.mesh_url, { blob: "..%2F..%2Fprojects" })],
    ];
    for (const [what, url] of cases) {
      const response = await api.request<ErrorBody>("GET", url);
      assertRefused(response, what, [400, 403, 404]);
    }
  });

  it("expires: past its expiry it is 403 url_expired", async () => {
    // the database signs no expiry in the past: one a second ahead, then wait it out
    const { urls } = await workpieceOf(alice, { ttlSeconds: 1 });
    await sleep(2100);
    const response = await api.request<ErrorBody>("GET", urls.mesh_url);
    assertRefused(response, "expired");
    assert.equal(response.body.detail.code, "url_expired");
  });

  it("stops working once the project holding its blob is deleted, while the same bytes elsewhere keep theirs", async () => {
    const ownThumbnail = Buffer.from(await renderThumbnail((await partC()).ingested.mesh, { size: 48 }));
    const { project, urls } = await workpieceOf(alice, { png: ownThumbnail });
    assert.equal((await api.request("GET", urls.thumbnail_url)).status, 200);
    assert.equal((await api.request("DELETE", `/projects/${project}`, { key: alice.key })).status, 204);
    assertRefused(await api.request<ErrorBody>("GET", urls.thumbnail_url), "a deleted project's own thumbnail", [404]);
    // its mesh is the same bytes as the mesh of alice's first project, which still holds it
    assert.equal((await api.request("GET", urls.mesh_url)).status, 200);
    assert.equal((await api.request("GET", aliceUrls.mesh_url)).status, 200);
  });
});
