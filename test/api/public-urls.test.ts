/**
 * The presigned mesh and thumbnail URLs of a workpiece upload are absolute: on PUBLIC_BASE_URL
 * when set, else on the request's scheme and Host, with X-Forwarded-Proto and -Host believed
 * only from a proxy TRUST_PROXY trusts; fetched as they are (or through another host, as a
 * proxy would), they serve the file. partC.stl through a real geometry thread.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import { after, before, describe, it } from "node:test";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { createGeometryPool, type GeometryPool } from "../../geometry-pool/pool.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { PART_C_STL } from "../support/fixture-workpiece.ts";
import { fileUpload } from "../support/multipart.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface Uploaded {
  mesh_url: string;
  thumbnail_url: string;
}

const FILES = `${API_BASE_PATH}/files/`;
const CONFIGURED = "https://cam.example.com/swarf";

let db: TestDatabase;
let geometry: GeometryPool;
/** TRUST_PROXY false, no PUBLIC_BASE_URL */
let direct: TestApi;
/** TRUST_PROXY loopback: the test is the proxy */
let proxied: TestApi;
/** PUBLIC_BASE_URL set, and a trusted proxy that it overrides */
let configured: TestApi;
let alice: TestUser;
let part: Buffer;

before(async () => {
  db = await createTestDatabase();
  geometry = createGeometryPool({ size: 1 });
  await geometry.ready();
  direct = await startTestApi(db, { geometry });
  proxied = await startTestApi(db, { geometry, env: { TRUST_PROXY: "loopback" } });
  configured = await startTestApi(db, {
    geometry,
    env: { TRUST_PROXY: "loopback", PUBLIC_BASE_URL: `${CONFIGURED}/` },
  });
  alice = await createTestUser(db.owner, "alice");
  part = fs.readFileSync(PART_C_STL);
});
after(async () => {
  await direct?.close();
  await proxied?.close();
  await configured?.close();
  await geometry?.close();
  await db?.drop();
});

/**
 * Uploads partC.stl to a new project with `headers` added, through node:http (fetch sends no
 * Host but its own).
 */
async function upload(api: TestApi, headers: Record<string, string> = {}): Promise<Uploaded> {
  const project = await api.request<{ id: string }>("POST", "/projects", {
    key: alice.key,
    body: { name: "URLs", customer: "C" },
  });
  assert.equal(project.status, 201);
  const form = fileUpload(part, "partC.stl");
  const target = new URL(`${api.origin}${API_BASE_PATH}/projects/${project.body.id}/workpiece`);
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(target, {
      method: "POST",
      headers: {
        "X-API-Key": alice.key,
        "Content-Type": form.contentType,
        "Content-Length": String(form.body.length),
        ...headers,
      },
    });
    request.on("response", (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on("error", reject);
    request.end(form.body);
  });
  assert.equal(status, 201, body);
  return JSON.parse(body) as Uploaded;
}

/** `url` with its base (everything before the files path) replaced by `origin`: as a proxy at that base forwards it */
function through(origin: string, url: string): string {
  return `${origin}${url.slice(url.indexOf(FILES))}`;
}

async function assertServes(url: string): Promise<void> {
  const mesh = await fetch(url);
  assert.equal(mesh.status, 200, url);
  assert.equal(mesh.headers.get("content-type"), "model/gltf-binary");
  const glb = Buffer.from(await mesh.arrayBuffer());
  assert.equal(glb.subarray(0, 4).toString("latin1"), "glTF");
}

describe("presigned URLs", () => {
  it("are absolute on the request's origin without PUBLIC_BASE_URL, and serve the files as they are", async () => {
    const { mesh_url, thumbnail_url } = await upload(direct);
    assert.ok(mesh_url.startsWith(`${direct.origin}${FILES}`), mesh_url);
    assert.ok(thumbnail_url.startsWith(`${direct.origin}${FILES}`), thumbnail_url);
    await assertServes(mesh_url);
    const thumbnail = await fetch(thumbnail_url);
    assert.equal(thumbnail.status, 200);
    assert.equal(thumbnail.headers.get("content-type"), "image/png");
  });

  it("take the Host the client sent; X-Forwarded-Proto and -Host from a peer that is not trusted change nothing", async () => {
    const { mesh_url } = await upload(direct, {
      Host: "cam.example.net:8443",
      "X-Forwarded-Proto": "https",
      "X-Forwarded-Host": "attacker.example",
    });
    assert.ok(mesh_url.startsWith(`http://cam.example.net:8443${FILES}`), mesh_url);
    // the signature does not cover the host: the URL verifies wherever it is reached
    await assertServes(through(direct.origin, mesh_url));
  });

  it("fall back to the address the connection came in on for a Host that is not a host", async () => {
    for (const host of ["cam.example.net/elsewhere?x=", "user@cam.example.net", "a b"]) {
      const { mesh_url } = await upload(direct, { Host: host });
      assert.ok(mesh_url.startsWith(`${direct.origin}${FILES}`), `${host}: ${mesh_url}`);
    }
  });

  it("take X-Forwarded-Proto and -Host (the first of a list) from a trusted proxy, and only a scheme that is http or https", async () => {
    const forwarded = await upload(proxied, {
      "X-Forwarded-Proto": "https",
      "X-Forwarded-Host": "cam.example.org, inner.local:8080",
    });
    assert.ok(forwarded.mesh_url.startsWith(`https://cam.example.org${FILES}`), forwarded.mesh_url);
    await assertServes(through(proxied.origin, forwarded.mesh_url));
    const odd = await upload(proxied, { "X-Forwarded-Proto": "javascript", "X-Forwarded-Host": "cam.example.org" });
    assert.ok(odd.mesh_url.startsWith(`http://cam.example.org${FILES}`), odd.mesh_url);
  });

  it("are on PUBLIC_BASE_URL, its path prefix kept, whatever Host and forwarded headers say", async () => {
    const { mesh_url, thumbnail_url } = await upload(configured, {
      Host: "cam.example.net:8443",
      "X-Forwarded-Proto": "http",
      "X-Forwarded-Host": "attacker.example",
    });
    assert.ok(mesh_url.startsWith(`${CONFIGURED}${FILES}`), mesh_url);
    assert.ok(thumbnail_url.startsWith(`${CONFIGURED}${FILES}`), thumbnail_url);
    await assertServes(through(configured.origin, mesh_url));
  });
});
