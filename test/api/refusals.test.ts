/**
 * Uploads and JSON bodies refused before (or while) their body is read reach real clients as
 * that status in the error envelope, never as a reset mid-body: Node's fetch (undici) and a
 * client that writes the whole body before it reads (with and without `Connection: close`), each
 * from a process of its own, and curl. Real parts from the fixtures are the bodies.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { repoRoot } from "../../config/env.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { sendFromChild, type ClientOutcome, type ClientRequest } from "../support/http-client-process.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

const PARTS = path.resolve(repoRoot, "..", "shared", "fixtures", "parts");
/** 1.86 MB of STEP with heavy PMI: more than the limit below by far (refused from its Content-Length) */
const LARGE = path.join(PARTS, "nist_ftc_10_asme1_ap242-e2.stp");
/** 0.99 MB: over the limit below by less than multipart framing may add (refused while read) */
const NEAR = path.join(PARTS, "nist_stc_06_asme1_ap242-e3.stp");
const UPLOAD_LIMIT_BYTES = 960 * 1024;
const JSON_BODY_LIMIT_BYTES = 64 * 1024;

/** curl with `args`, `stdin` as its standard input */
function curl(args: readonly string[], stdin = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("curl", args, { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let readOnlyKey: string;
let limitedKey: string;
let projectId: string;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, {
    env: {
      UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT_BYTES),
      JSON_BODY_LIMIT_BYTES: String(JSON_BODY_LIMIT_BYTES),
      AUTH_FAILURES_PER_ADDRESS: "3",
    },
  });
  alice = await createTestUser(db.owner, "alice");
  readOnlyKey = await alice.keyWith(["projects:read"]);
  const project = await api.request<{ id: string }>("POST", "/projects", {
    key: alice.key,
    body: { name: "Refusals", customer: "Edge" },
  });
  assert.equal(project.status, 201);
  projectId = project.body.id;
});
after(async () => {
  await api.close();
  await db.drop();
});

/**
 * A new key allowed one request a minute, that request spent: the key's requests in the next
 * minute are 429 (a key spent earlier would be let go again part way through a test).
 */
async function spendLimitedKey(): Promise<void> {
  limitedKey = await alice.keyWith(["cam:write", "projects:read", "projects:write"]);
  await db.owner.query(`update app_private.api_keys set rate_limits = '{"default": 1}' where key_prefix = $1`, [
    limitedKey.split("_live_")[0],
  ]);
  assert.equal((await api.request("GET", "/projects", { key: limitedKey })).status, 200);
}

interface Refusal {
  name: string;
  status: number;
  code: string;
  path: string;
  headers?: Record<string, string>;
  upload?: string;
  jsonBytes?: number;
  contentType?: string;
}

function refusals(route: "workpiece" | "job"): Refusal[] {
  const at = `/projects/${projectId}/${route}`;
  const key = (value: string) => ({ "X-API-Key": value });
  return [
    {
      name: `${route}: 413 from the Content-Length`,
      status: 413,
      code: "payload_too_large",
      path: at,
      headers: key(alice.key),
      upload: LARGE,
    },
    {
      name: `${route}: 413 while read`,
      status: 413,
      code: "payload_too_large",
      path: at,
      headers: key(alice.key),
      upload: NEAR,
    },
    { name: `${route}: 401 without a key`, status: 401, code: "api_key_missing", path: at, upload: LARGE },
    {
      name: `${route}: 403 without cam:write`,
      status: 403,
      code: "insufficient_scope",
      path: at,
      headers: key(readOnlyKey),
      upload: LARGE,
    },
    {
      name: `${route}: 429 over the key's limit`,
      status: 429,
      code: "validation_error",
      path: at,
      headers: key(limitedKey),
      upload: LARGE,
    },
    {
      name: `${route}: 415 not multipart`,
      status: 415,
      code: "unsupported_media_type",
      path: at,
      headers: key(alice.key),
      upload: LARGE,
      contentType: "application/step",
    },
  ];
}

function jsonRefusals(): Refusal[] {
  return [
    {
      name: "JSON: 413 over JSON_BODY_LIMIT_BYTES",
      status: 413,
      code: "payload_too_large",
      path: "/projects",
      headers: { "X-API-Key": alice.key },
      jsonBytes: 3_000_000,
    },
    {
      name: "JSON: 415 not application/json",
      status: 415,
      code: "unsupported_media_type",
      path: "/projects",
      headers: { "X-API-Key": alice.key },
      jsonBytes: 3_000_000,
      contentType: "text/plain",
    },
  ];
}

function asRequest(
  refusal: Refusal,
  client: ClientRequest["client"],
  extra: Record<string, string> = {},
): ClientRequest {
  return {
    client,
    url: `${api.origin}${API_BASE_PATH}${refusal.path}`,
    method: "POST",
    headers: { ...refusal.headers, ...extra },
    ...(refusal.upload
      ? { upload: { path: refusal.upload, field: "file", filename: path.basename(refusal.upload) } }
      : {}),
    ...(refusal.jsonBytes !== undefined ? { jsonBytes: refusal.jsonBytes } : {}),
    ...(refusal.contentType ? { contentType: refusal.contentType } : {}),
  };
}

function assertEnvelope(
  refusal: Refusal,
  label: string,
  outcome: { status: number; body: string; requestId: string | undefined },
): void {
  assert.equal(outcome.status, refusal.status, `${label}: ${refusal.name}: ${outcome.body}`);
  const body = JSON.parse(outcome.body) as {
    detail: { code: string; message: string; details: unknown; request_id: string };
  };
  assert.equal(body.detail.code, refusal.code, `${label}: ${refusal.name}`);
  assert.equal(typeof body.detail.message, "string");
  assert.match(body.detail.request_id, /^req_/, `${label}: ${refusal.name}`);
  assert.equal(
    body.detail.request_id,
    outcome.requestId,
    `${label}: ${refusal.name}: the envelope's request_id is the header's`,
  );
}

function assertAnswered(refusal: Refusal, label: string, outcome: ClientOutcome | undefined): void {
  assert.ok(outcome, `${label}: ${refusal.name}: no outcome`);
  assert.ok(outcome.ok, `${label}: ${refusal.name}: ${outcome.ok ? "" : outcome.error}`);
  assertEnvelope(refusal, label, {
    status: outcome.status,
    body: outcome.body,
    requestId: outcome.headers["x-request-id"],
  });
}

async function viaChildClients(all: readonly Refusal[]): Promise<void> {
  const clients: [string, ClientRequest["client"], Record<string, string>][] = [
    ["fetch", "fetch", {}],
    ["whole body first", "socket", {}],
    ["whole body first, Connection: close", "socket", { Connection: "close" }],
  ];
  const outcomes = await sendFromChild(
    clients.flatMap(([, client, extra]) => all.map((refusal) => asRequest(refusal, client, extra))),
  );
  for (const [c, [label]] of clients.entries()) {
    for (const [r, refusal] of all.entries()) assertAnswered(refusal, label, outcomes[c * all.length + r]);
  }
}

async function viaCurl(refusal: Refusal, extra: string[] = []): Promise<void> {
  const args = ["-sS", "-D", "-", "-o", "-", "-X", "POST", ...extra];
  for (const [name, value] of Object.entries(refusal.headers ?? {})) args.push("-H", `${name}: ${value}`);
  if (refusal.upload && refusal.contentType) {
    args.push("-H", `Content-Type: ${refusal.contentType}`, "--data-binary", `@${refusal.upload}`);
  } else if (refusal.upload) {
    args.push("-F", `file=@${refusal.upload}`);
  }
  let stdin = "";
  if (refusal.jsonBytes !== undefined) {
    args.push("-H", `Content-Type: ${refusal.contentType ?? "application/json"}`, "--data-binary", "@-");
    stdin = `{"name":"${"x".repeat(refusal.jsonBytes - 11)}"}`;
  }
  args.push(`${api.origin}${API_BASE_PATH}${refusal.path}`);
  const { code, stdout, stderr } = await curl(args, stdin);
  assert.equal(stderr, "", `curl: ${refusal.name}`);
  assert.equal(code, 0, `curl: ${refusal.name}`);
  // the final answer's head (after any 100 Continue), then its body
  const answers = stdout.split(/\r\n\r\n/);
  const body = answers.pop() ?? "";
  const head = answers.at(-1) ?? "";
  const status = Number(/^HTTP\/[\d.]+ (\d+)/.exec(head)?.[1]);
  const requestId = /^x-request-id: (\S+)/im.exec(head)?.[1];
  assertEnvelope(refusal, `curl ${extra.join(" ")}`, { status, body, requestId });
}

describe("refused uploads and bodies reach the client as answers", () => {
  it("POST /projects/{id}/workpiece: fetch and a client that writes everything first get each refusal", async () => {
    await spendLimitedKey();
    await viaChildClients(refusals("workpiece"));
  });

  it("POST /projects/{id}/job (.famc upload): fetch and a client that writes everything first get each refusal", async () => {
    await spendLimitedKey();
    await viaChildClients(refusals("job"));
  });

  it("JSON bodies over the limit or of another type: the same", async () => {
    await viaChildClients(jsonRefusals());
  });

  it("curl gets each refusal, with and without Expect: 100-continue and Connection: close", async () => {
    await spendLimitedKey();
    for (const refusal of [...refusals("workpiece"), ...refusals("job"), ...jsonRefusals()]) await viaCurl(refusal);
    for (const refusal of refusals("workpiece")) {
      await viaCurl(refusal, ["-H", "Expect:"]);
      await viaCurl(refusal, ["-H", "Connection: close"]);
    }
  });

  it("429 for an address that sent too many unknown keys: the same", async () => {
    const at = `/projects/${projectId}/workpiece`;
    const bogus = { "X-API-Key": "nope" };
    for (let attempt = 0; attempt < 3; attempt += 1) {
      assert.equal((await api.request("GET", "/projects", { key: "nope" })).status, 401);
    }
    const refusal: Refusal = {
      name: "429 for the address",
      status: 429,
      code: "validation_error",
      path: at,
      headers: bogus,
      upload: LARGE,
    };
    await viaChildClients([refusal]);
    await viaCurl(refusal);
  });
});
