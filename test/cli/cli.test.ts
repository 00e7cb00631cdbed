/**
 * scripts/cli.ts as an operator runs it: a child process against the test database
 * (DATABASE_URL = the owner connection), its keys checked through the real API.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { SCOPES } from "../../auth/scopes.ts";
import { repoRoot } from "../../config/env.ts";
import { starterLibrary } from "../../kernel/tools/catalogue/starter-library.ts";
import { saveWorkpiece } from "../../db/queries/workpieces.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { asUser } from "../support/as-user.ts";
import { partC } from "../support/fixture-workpiece.ts";
import { createTestUser } from "../support/users.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { everyMovePlan } from "../support/every-move-plan.ts";
import { planningProject, projectWithPlan } from "../support/planning.ts";

const KEY_LINE = /^[a-z2-7]{4,32}_live_[A-Z2-7]{40}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

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

function cli(...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], {
      cwd: repoRoot,
      // logging on, so a log line on stdout would show
      env: { ...process.env, DATABASE_URL: db.ownerUrl, LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    // a hang guard, not a speed check: at a load of 19 on 2 cores one command took over 60 s
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function email(label: string): string {
  return `${label}-${randomBytes(4).toString("hex")}@example.com`;
}

async function createUser(label: string, ...options: string[]): Promise<{ id: string; email: string }> {
  const address = email(label);
  const res = await cli("user", "create", address, ...options);
  assert.equal(res.code, 0, res.stderr);
  return { id: res.stdout.trim(), email: address };
}

async function createKey(address: string, ...options: string[]): Promise<string> {
  const res = await cli("key", "create", address, ...options);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /^[^\n]+\n$/, "one line");
  const key = res.stdout.trim();
  assert.match(key, KEY_LINE);
  return key;
}

function prefixOf(key: string): string {
  return key.slice(0, key.indexOf("_live_"));
}

/** `key list` rows as [name, prefix, created, last used, state], found by prefix. */
async function listed(address: string, prefix: string): Promise<string[]> {
  const res = await cli("key", "list", address);
  assert.equal(res.code, 0, res.stderr);
  const lines = res.stdout.trimEnd().split("\n");
  assert.match(lines[0]!, /^NAME\s+PREFIX\s+CREATED\s+LAST USED\s+STATE$/);
  const line = lines.find((l) => l.split(/\s{2,}/)[1] === prefix);
  assert.ok(line, `no line for ${prefix} in:\n${res.stdout}`);
  return line.split(/\s{2,}/);
}

describe("cli user create", { concurrency: true }, () => {
  it("prints only the new user's UUID and gives the user machines, a default library holding the starter library and quote settings", async () => {
    const address = email("new");
    const res = await cli("user", "create", address);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^[^\n]*\n$/, "exactly one line");
    const id = res.stdout.trim();
    assert.match(id, UUID);
    const user = await db.owner.query("select email from app_public.users where id = $1", [id]);
    assert.deepEqual(user.rows, [{ email: address }]);

    const machines = await db.owner.query<{ product_id: string; position: number }>(
      "select product_id, position from app_public.user_machines where user_id = $1 order by position",
      [id],
    );
    const catalogue = await db.owner.query<{ product_id: string }>(
      "select product_id from app_public.machines order by listing_order, product_id",
    );
    assert.ok(catalogue.rows.length >= 6);
    assert.deepEqual(
      machines.rows.map((m) => m.product_id),
      catalogue.rows.map((m) => m.product_id),
      "every machine, in listing order",
    );
    assert.deepEqual(
      machines.rows.map((m) => m.position),
      catalogue.rows.map((_, i) => i + 1),
    );
    const libraries = await db.owner.query("select is_default from app_public.equipment_libraries where user_id = $1", [
      id,
    ]);
    assert.deepEqual(libraries.rows, [{ is_default: true }]);
    assert.deepEqual(
      await assemblyNames(id),
      starterLibrary().map((a) => a.name),
    );
    const settings = await db.owner.query("select 1 from app_public.quote_settings where user_id = $1", [id]);
    assert.equal(settings.rowCount, 1);
  });

  it("leaves the default library empty with --empty-library", async () => {
    const user = await createUser("bare", "--empty-library");
    const libraries = await db.owner.query(
      "select name, is_default from app_public.equipment_libraries where user_id = $1",
      [user.id],
    );
    assert.deepEqual(libraries.rows, [{ name: "Default library", is_default: true }]);
    assert.deepEqual(await assemblyNames(user.id), []);
    const items = await db.owner.query(
      "select (select count(*) from app_public.holders where user_id = $1)::int as holders, (select count(*) from app_public.tools where user_id = $1)::int as tools",
      [user.id],
    );
    assert.deepEqual(items.rows, [{ holders: 0, tools: 0 }]);
  });

  it("exits 1 with a message for an email that exists already, in any letter case", async () => {
    const { email: address } = await createUser("twice");
    for (const again of [address, address.toUpperCase()]) {
      const res = await cli("user", "create", again);
      assert.equal(res.code, 1, again);
      assert.equal(res.stdout, "");
      assert.match(res.stderr, /exists/i);
    }
    const { rows } = await db.owner.query("select 1 from app_public.users where lower(email) = lower($1)", [address]);
    assert.equal(rows.length, 1);
  });

  it("exits 2 without a valid email address", async () => {
    for (const args of [
      ["user", "create"],
      ["user", "create", "not-an-email"],
    ]) {
      const res = await cli(...args);
      assert.equal(res.code, 2, args.join(" "));
      assert.equal(res.stdout, "");
      assert.match(res.stderr, /usage:/);
    }
  });
});

/** The names of the user's assemblies, in library and slot order. */
async function assemblyNames(userId: string, libraryId?: string): Promise<string[]> {
  const { rows } = await db.owner.query<{ name: string }>(
    `select a.name from app_public.library_assemblies a join app_public.equipment_libraries l on l.id = a.library_id
      where a.user_id = $1 and ($2::uuid is null or l.id = $2) order by l.created_at, a.position`,
    [userId, libraryId ?? null],
  );
  return rows.map((r) => r.name);
}

describe("cli library add-starter", { concurrency: true }, () => {
  it("adds the starter library to the default library, listing each assembly, and the second time says there is nothing to add", async () => {
    const user = await createUser("later", "--empty-library");
    const library = (
      await db.owner.query<{ id: string }>("select id from app_public.equipment_libraries where user_id = $1", [
        user.id,
      ])
    ).rows[0]!.id;
    const res = await cli("library", "add-starter", user.email);
    assert.equal(res.code, 0, res.stderr);
    const starter = starterLibrary();
    const lines = res.stdout.trimEnd().split("\n");
    assert.equal(lines[0], `added ${starter.length} starter assemblies to Default library (${library}):`);
    const ids = (
      await db.owner.query<{ id: string }>(
        "select id from app_public.library_assemblies where library_id = $1 order by position",
        [library],
      )
    ).rows.map((r) => r.id);
    assert.deepEqual(
      lines.slice(1),
      starter.map((a, i) => `  ${ids[i]}  ${a.name}`),
    );
    assert.deepEqual(
      await assemblyNames(user.id),
      starter.map((a) => a.name),
    );

    const again = await cli("library", "add-starter", user.email.toUpperCase());
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, `nothing to add: Default library (${library}) holds every starter assembly\n`);
    assert.equal((await assemblyNames(user.id)).length, starter.length);
  });

  it("adds to the library --library names, and brings back an assembly deleted from it", async () => {
    const user = await createUser("named");
    const library = (
      await db.owner.query<{ id: string }>(
        "insert into app_public.equipment_libraries (user_id, name, description) values ($1, 'Mill 2', '') returning id",
        [user.id],
      )
    ).rows[0]!.id;
    const first = await cli("library", "add-starter", user.email, "--library", library.toUpperCase());
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      first.stdout,
      new RegExp(`^added ${starterLibrary().length} starter assemblies to Mill 2 \\(${library}\\):\n`),
    );
    const gone = await db.owner.query<{ id: string; name: string }>(
      "delete from app_public.library_assemblies where library_id = $1 and position = 7 returning id, name",
      [library],
    );
    const back = await cli("library", "add-starter", user.email, "--library", library);
    assert.equal(back.code, 0, back.stderr);
    assert.equal(
      back.stdout,
      `added 1 starter assembly to Mill 2 (${library}):\n  ${gone.rows[0]!.id}  ${gone.rows[0]!.name}\n`,
    );
    assert.equal((await assemblyNames(user.id, library)).length, starterLibrary().length);
  });

  it("exits 1 for an unknown user or another user's library, 2 for a malformed library id or no email, and adds nothing", async () => {
    const [user, other] = [await createUser("mine", "--empty-library"), await createUser("theirs", "--empty-library")];
    const theirs = (
      await db.owner.query<{ id: string }>("select id from app_public.equipment_libraries where user_id = $1", [
        other.id,
      ])
    ).rows[0]!.id;
    const cases: [string[], number, RegExp][] = [
      [["library", "add-starter", email("nobody")], 1, /no user has the email/],
      [["library", "add-starter", user.email, "--library", theirs], 1, /has no library/],
      [["library", "add-starter", user.email, "--library", "12345"], 2, /--library must be a library id/],
      [["library", "add-starter"], 2, /usage:/],
    ];
    for (const [args, code, message] of cases) {
      const res = await cli(...args);
      assert.equal(res.code, code, args.join(" "));
      assert.equal(res.stdout, "");
      assert.match(res.stderr, message);
    }
    assert.deepEqual(await assemblyNames(user.id), []);
    assert.deepEqual(await assemblyNames(other.id), []);
  });

  it("exits 1 for a user without a default library", async () => {
    const user = await createUser("nodefault", "--empty-library");
    await db.owner.query("update app_public.equipment_libraries set is_default = false where user_id = $1", [user.id]);
    const res = await cli("library", "add-starter", user.email);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /has no default library: name one with --library ID/);
  });
});

describe("cli key create", { concurrency: true }, () => {
  it("prints exactly one line, the key, holding every scope by default", async () => {
    const user = await createUser("keys");
    const res = await cli("key", "create", user.email);
    assert.equal(res.code, 0, res.stderr);
    const lines = res.stdout.split("\n");
    assert.equal(lines.length, 2, `stdout: ${JSON.stringify(res.stdout)}`);
    assert.equal(lines[1], "");
    assert.match(lines[0]!, KEY_LINE);
    const { rows } = await db.owner.query<{ scopes: string[]; user_id: string }>(
      "select scopes, user_id from app_private.api_keys where key_prefix = $1",
      [prefixOf(lines[0]!)],
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.user_id, user.id);
    assert.deepEqual([...rows[0]!.scopes].sort(), [...SCOPES].sort());
    const write = await api.request("POST", "/projects", { key: lines[0]!, body: { name: "P", customer: "C" } });
    assert.equal(write.status, 201, write.text);
  });

  it("makes a key limited to --scopes: projects:read may list projects but not create one", async () => {
    const user = await createUser("reader");
    const key = await createKey(user.email, "--scopes", "projects:read");
    const { rows } = await db.owner.query("select scopes from app_private.api_keys where key_prefix = $1", [
      prefixOf(key),
    ]);
    assert.deepEqual(rows, [{ scopes: ["projects:read"] }]);
    assert.equal((await api.request("GET", "/projects", { key })).status, 200);
    const denied = await api.request<{ detail: { code: string } }>("POST", "/projects", {
      key,
      body: { name: "P", customer: "C" },
    });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.detail.code, "insufficient_scope");
    const none = await db.owner.query("select 1 from app_public.projects where user_id = $1", [user.id]);
    assert.equal(none.rowCount, 0);
  });

  it("exits 2 for an unknown scope and makes no key", async () => {
    const user = await createUser("bogus");
    for (const scopes of ["bogus", "projects:read,bogus", ""]) {
      const res = await cli("key", "create", user.email, "--scopes", scopes);
      assert.equal(res.code, 2, `--scopes ${JSON.stringify(scopes)}`);
      assert.equal(res.stdout, "");
      assert.match(res.stderr, /scope/);
    }
    const { rows } = await db.owner.query("select 1 from app_private.api_keys where user_id = $1", [user.id]);
    assert.equal(rows.length, 0);
  });

  it("exits 1 for an email no user has", async () => {
    const res = await cli("key", "create", email("nobody"));
    assert.equal(res.code, 1);
    assert.equal(res.stdout, "");
    assert.match(res.stderr, /no user/);
  });

  it("stores only the SHA-256 of the key, never the plaintext or its secret part", async () => {
    const user = await createUser("hash");
    const key = await createKey(user.email, "--name", "hashed");
    const secret = key.slice(key.indexOf("_live_") + "_live_".length);
    const { rows } = await db.owner.query<{ key_hash: Buffer; row: string }>(
      "select key_hash, row_to_json(k)::text as row from app_private.api_keys k where key_prefix = $1",
      [prefixOf(key)],
    );
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0]!.key_hash, createHash("sha256").update(key, "utf8").digest());
    const row = rows[0]!.row;
    for (const needle of [
      key,
      secret,
      secret.toLowerCase(),
      Buffer.from(secret).toString("hex"),
      Buffer.from(key).toString("base64"),
    ]) {
      assert.ok(!row.toLowerCase().includes(needle.toLowerCase()), `the row holds ${needle}`);
    }
    // nor anywhere else in the user's private rows
    const everywhere = await db.owner.query<{ t: string }>(
      `select (select coalesce(json_agg(k), '[]')::text from app_private.api_keys k) ||
              (select coalesce(json_agg(u), '[]')::text from app_public.users u) as t`,
    );
    assert.ok(!everywhere.rows[0]!.t.includes(secret));
  });
});

describe("cli key list", { concurrency: true }, () => {
  it("lists a key by --name with its prefix, creation time and 'never', then the time of its first use", async () => {
    const user = await createUser("lister");
    const key = await createKey(user.email, "--name", "ci deploy");
    const other = await createKey(user.email);
    const prefix = prefixOf(key);
    const stored = async () =>
      (
        await db.owner.query<{ created_at: Date; last_used_at: Date | null }>(
          "select created_at, last_used_at from app_private.api_keys where key_prefix = $1",
          [prefix],
        )
      ).rows[0]!;

    const before = await listed(user.email, prefix);
    assert.deepEqual(before, ["ci deploy", prefix, (await stored()).created_at.toISOString(), "never", "active"]);
    assert.equal((await listed(user.email, prefixOf(other)))[0], "CLI key", "the default name");

    assert.equal((await api.request("GET", "/projects", { key })).status, 200);
    const used = await stored();
    assert.ok(used.last_used_at, "last_used_at is written on use");
    const afterUse = await listed(user.email, prefix);
    assert.equal(afterUse[3], used.last_used_at.toISOString());
    assert.ok(Math.abs(Date.parse(afterUse[3]!) - Date.now()) < 60_000);
    assert.equal((await listed(user.email, prefixOf(other)))[3], "never", "the unused key stays unused");
  });

  it("lists no other user's keys", async () => {
    const one = await createUser("one");
    const two = await createUser("two");
    const key = await createKey(two.email);
    const res = await cli("key", "list", one.email);
    assert.equal(res.code, 0, res.stderr);
    assert.ok(!res.stdout.includes(prefixOf(key)));
    assert.equal(res.stdout.trimEnd().split("\n").length, 1, "the header only");
  });
});

describe("cli key revoke", { concurrency: true }, () => {
  it("makes the key get 401 at once, even while the API has it cached", async () => {
    const user = await createUser("revoker");
    const key = await createKey(user.email);
    const keep = await createKey(user.email);
    assert.equal((await api.request("GET", "/projects", { key })).status, 200, "used, so cached");
    const prefix = prefixOf(key);
    const res = await cli("key", "revoke", prefix);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `revoked ${prefix}\n`);
    const denied = await api.request<{ detail: { code: string } }>("GET", "/projects", { key });
    assert.equal(denied.status, 401);
    assert.equal(denied.body.detail.code, "api_key_invalid");
    assert.equal(
      (await api.request("GET", "/projects", { key: keep })).status,
      200,
      "the user's other key still works",
    );
    assert.match((await listed(user.email, prefix))[4]!, /^revoked \d{4}-/);

    const again = await cli("key", "revoke", prefix);
    assert.equal(again.code, 1, "a revoked key cannot be revoked again");
    assert.match(again.stderr, /no active key/);
  });

  it("exits 1 for a prefix no key has and 2 for something that is not a prefix", async () => {
    const unknown = await cli("key", "revoke", "swzzzzzzzz");
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stdout, "");
    assert.match(unknown.stderr, /swzzzzzzzz/);
    for (const args of [
      ["key", "revoke"],
      ["key", "revoke", "NOT_A_PREFIX"],
    ]) {
      const res = await cli(...args);
      assert.equal(res.code, 2, args.join(" "));
      assert.match(res.stderr, /usage:/);
    }
  });
});

describe("cli workpiece tessellate", () => {
  it("queues a re-mesh as a task of the workpiece's owner and prints only its id", async () => {
    const owner = await createTestUser(db.owner, "remesh");
    const project = await api.request<{ id: string }>("POST", "/projects", {
      key: owner.key,
      body: { name: "P", customer: "C" },
    });
    const part = await partC();
    const saved = await asUser(api.pool, owner, (client) =>
      saveWorkpiece(client, project.body.id, part.ingested, part.original, part.glb, part.png),
    );
    const workpieceId = saved!.workpiece.id;
    const res = await cli(
      "workpiece",
      "tessellate",
      workpieceId,
      "--linear-deflection",
      "0.02",
      "--angular-deflection",
      "15",
    );
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^[0-9a-f-]{36}\n$/);
    const { rows } = await db.owner.query(
      "select user_id, project_id, task_name, worker_task, status, payload from app_public.tasks where id = $1",
      [res.stdout.trim()],
    );
    assert.deepEqual(rows[0], {
      user_id: owner.id,
      project_id: project.body.id,
      task_name: "workpiece.tessellate",
      worker_task: "tessellate",
      status: "queued",
      payload: { workpiece_id: workpieceId, linear_deflection_mm: 0.02, angular_deflection_deg: 15 },
    });
    const job = await db.owner.query("select task_identifier from graphile_worker.jobs where key = $1", [
      res.stdout.trim(),
    ]);
    assert.equal(job.rows[0]?.task_identifier, "tessellate", "its job is queued with it");
  });

  it("exits 1 for a workpiece no live project has, and 2 for a bad id or deflection", async () => {
    const unknown = await cli("workpiece", "tessellate", "00000000-0000-4000-8000-000000000000");
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no live project has the workpiece/);
    for (const args of [
      [],
      ["not-a-uuid"],
      ["00000000-0000-4000-8000-000000000000", "--linear-deflection", "0"],
      ["00000000-0000-4000-8000-000000000000", "--angular-deflection", "many"],
    ]) {
      const res = await cli("workpiece", "tessellate", ...args);
      assert.equal(res.code, 2, args.join(" "));
      assert.match(res.stderr, /workpiece tessellate/);
    }
  });
});

describe("cli setup-sheet", { concurrency: true }, () => {
  it("writes a planned project's setup sheet: HTML on stdout, a PDF with --pdf to --out or down a pipe", async () => {
    const owner = await createTestUser(db.owner, "sheet");
    const projectId = await projectWithPlan(api, owner, everyMovePlan(false, "vise"), { name: "Sheet" });
    const html = await cli("setup-sheet", projectId);
    assert.equal(html.code, 0, html.stderr);
    assert.match(html.stdout, /^<!DOCTYPE html>/);
    assert.match(html.stdout, /<h2>Setup 1 of 1: /);
    assert.match(html.stdout, /Setup sheet: Sheet/);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-sheet-"));
    const file = path.join(dir, "sheet.pdf");
    const pdf = await cli("setup-sheet", projectId, "--pdf", "--paper", "letter", "--out", file);
    assert.equal(pdf.code, 0, pdf.stderr);
    assert.match(pdf.stdout, new RegExp(`^wrote ${file} \\(\\d+ bytes, job [0-9a-f-]{36}\\)\n$`));
    assert.match(execFileSync("pdfinfo", [file], { encoding: "utf8" }), /Page size:\s+612 x 792 pts \(letter\)/);
    fs.rmSync(dir, { recursive: true });

    const piped = await cli("setup-sheet", projectId, "--pdf");
    assert.equal(piped.code, 0, piped.stderr);
    assert.ok(piped.stdout.startsWith("%PDF-"));
  });

  it("exits 1 for a project without a plan or none live, 2 for a bad project id or paper", async () => {
    const owner = await createTestUser(db.owner, "sheetless");
    const unplanned = await cli("setup-sheet", await planningProject(api, owner));
    assert.equal(unplanned.code, 1);
    assert.match(unplanned.stderr, /no toolpaths/);
    const none = await cli("setup-sheet", "00000000-0000-4000-8000-000000000000");
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no live project has the id/);
    for (const args of [[], ["not-a-uuid"], ["00000000-0000-4000-8000-000000000000", "--paper", "a3"]]) {
      const res = await cli("setup-sheet", ...args);
      assert.equal(res.code, 2, args.join(" "));
      assert.match(res.stderr, /setup-sheet/);
    }
  });
});

describe("cli usage", { concurrency: true }, () => {
  it("exits 2 with the usage on stderr for an unknown or missing command", async () => {
    for (const args of [
      ["frobnicate"],
      ["user", "delete", "a@b.c"],
      [],
      ["key", "create", "a@b.c", "--colour", "red"],
    ]) {
      const res = await cli(...args);
      assert.equal(res.code, 2, `cli ${args.join(" ")}`);
      assert.equal(res.stdout, "");
      assert.match(res.stderr, /usage:\n\s+cli user create <email>/);
    }
  });
});

describe("cli catalogue import", () => {
  const sample = `${repoRoot}/kernel/tools/catalogue/testdata/fusion-library-sample.json`;
  const maker = (label: string) => `Acme ${label} ${randomBytes(3).toString("hex")}`;
  const stored = (manufacturer: string) =>
    db.owner.query<{ article_number: string; manufacturer: string; source: string; uuid: string }>(
      `select article_number, manufacturer, source, assembly ->> 'uuid' as uuid from app_public.catalogue_entries
        where lower(manufacturer) = lower($1) order by article_number`,
      [manufacturer],
    );

  it("imports a Fusion 360 library: prints the count, each skipped tool on stderr, and search finds the entries", async () => {
    const name = maker("Cutters");
    const res = await cli("catalogue", "import", sample, "--manufacturer", name);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `imported 8 entries for ${name}\n`);
    // stderr also carries the log (LOG_LEVEL info here)
    const skipped = res.stderr.split("\n").filter((line) => line.startsWith("skipped tool"));
    assert.equal(skipped.length, 4, res.stderr);
    assert.match(skipped[0]!, /^skipped tool 5: unsupported tool type "radius mill"$/);
    assert.match(res.stderr, /^skipped tool 11: duplicate article number FX-2B-0600/m);
    const rows = (await stored(name)).rows;
    assert.equal(rows.length, 8);
    assert.ok(rows.every((r) => r.source === "import" && r.manufacturer === name));

    const user = await createTestUser(db.owner, "catalogue");
    const byMaker = await api.request<{ results: { article_number: string; manufacturer: string }[] }>(
      "GET",
      `/equipment/external-catalogue/search?manufacturer=${encodeURIComponent(name.toLowerCase())}&limit=100`,
      { key: user.key },
    );
    assert.equal(byMaker.status, 200, byMaker.text);
    assert.deepEqual(
      byMaker.body.results.map((r) => r.article_number).sort(),
      rows.map((r) => r.article_number).sort(),
    );
    const byArticle = await api.request<{ results: { article_number: string; manufacturer: string }[] }>(
      "GET",
      "/equipment/external-catalogue/search?q=fx-dr-0850-5d",
      { key: user.key },
    );
    assert.equal(byArticle.body.results[0]?.article_number, "FX-DR-0850-5D");
    assert.equal(byArticle.body.results[0]?.manufacturer, name);
    const entry = await api.request<{ manufacturer: string; components: unknown[] }>(
      "GET",
      `/equipment/external-catalogue/${encodeURIComponent(name)}/FX-DR-0850-5D`,
      { key: user.key },
    );
    assert.equal(entry.status, 200);
    assert.equal(entry.body.manufacturer, name);
  });

  it("imports the same library again without a change: the same entries with the same ids, also under another letter case", async () => {
    const name = maker("Twice");
    const first = await cli("catalogue", "import", sample, "--manufacturer", name);
    assert.equal(first.code, 0, first.stderr);
    const before = (await stored(name)).rows;
    const again = await cli("catalogue", "import", sample, "--manufacturer", name);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, first.stdout);
    assert.deepEqual((await stored(name)).rows, before);
    const shouted = await cli("catalogue", "import", sample, "--manufacturer", name.toUpperCase());
    assert.equal(shouted.code, 0, shouted.stderr);
    assert.equal(shouted.stdout, `imported 8 entries for ${name}\n`, "filed under the stored spelling");
    assert.match(shouted.stderr, /stored spelling/);
    assert.deepEqual((await stored(name)).rows, before);
  });

  it("exits 1 for a file that is not JSON, not a tool library or not readable, and imports nothing", async () => {
    const fs = await import("node:fs/promises");
    const os = await import("node:os");
    const dir = await fs.mkdtemp(`${os.tmpdir()}/swarf-cli-`);
    try {
      const notJson = `${dir}/library.json`;
      const notLibrary = `${dir}/other.json`;
      await fs.writeFile(notJson, "tool,diameter\nFX-1,6\n");
      await fs.writeFile(notLibrary, JSON.stringify({ tools: [] }));
      const name = maker("Broken");
      for (const [file, reason] of [
        [notJson, /not JSON/],
        [notLibrary, /not a Fusion 360 tool library/],
        [`${dir}/missing.json`, /cannot read/],
        [dir, /cannot read/],
      ] as const) {
        const res = await cli("catalogue", "import", file, "--manufacturer", name);
        assert.equal(res.code, 1, file);
        assert.equal(res.stdout, "");
        assert.match(res.stderr, reason, file);
      }
      assert.equal((await stored(name)).rows.length, 0);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("exits 2 with the usage without a file or --manufacturer, or for the standard range's name", async () => {
    for (const args of [
      [],
      ["--manufacturer", "Acme"],
      [sample],
      [sample, "--manufacturer", "  "],
      [sample, "--manufacturer", "swarf standard range"],
    ]) {
      const res = await cli("catalogue", "import", ...args);
      assert.equal(res.code, 2, args.join(" "));
      assert.equal(res.stdout, "");
      assert.match(res.stderr, /cli catalogue import <file> --manufacturer NAME/);
    }
    const { rows } = await db.owner.query(
      "select count(*)::int as n from app_public.catalogue_entries where source = 'import' and manufacturer = 'Acme'",
    );
    assert.equal(rows[0].n, 0);
  });
});
