/**
 * The API role against the schema directly, without the API in between: what it may read,
 * call and write with and without a request identity.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { ensureAppRole } from "../../db/roles.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { partC } from "../support/fixture-workpiece.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

/** readable by any connection of the API role (every API request is authenticated first) */
const PUBLIC_REFERENCE_TABLES = ["catalogue_entries"];
let db: TestDatabase;
let app: pg.Client;
let appRole: string;
let alice: TestUser;
let bob: TestUser;
const projects: Record<string, string[]> = {};
/** per user: the blobs, workpiece and job seeded in their first project */
const seeded: Record<
  string,
  { blobs: { original: string; mesh: string; thumbnail: string }; workpiece: string; job: string }
> = {};

interface PgError {
  code: string;
  message: string;
}

function isPgError(error: unknown): error is PgError {
  return typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string";
}

/** Runs sql on the API connection inside a savepoint and returns the error it raised. */
async function refusal(client: pg.Client, sql: string, values: unknown[] = []): Promise<PgError> {
  await client.query("savepoint refusal");
  try {
    await client.query(sql, values);
  } catch (error) {
    await client.query("rollback to savepoint refusal");
    if (isPgError(error)) return error;
    throw error;
  }
  await client.query("release savepoint refusal");
  assert.fail(`the API role was allowed to run: ${sql}`);
}

/** As the API role, in a transaction that carries userId the way begin_request sets it. */
async function asUser<T>(userId: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  await app.query("begin");
  try {
    await app.query("select set_config('app.user_id', $1, true)", [userId]);
    return await work(app);
  } finally {
    await app.query("rollback");
  }
}

async function seedProject(user: TestUser, name: string): Promise<string> {
  const { rows } = await db.owner.query<{ id: string }>(
    `insert into app_public.projects (user_id, name, customer, product_id)
     values ($1, $2, 'ACME', 'vmc-850-fanuc') returning id`,
    [user.id, name],
  );
  const id = rows[0]!.id;
  await db.owner.query(
    "insert into app_public.tasks (user_id, project_id, task_name, worker_task) values ($1, $2, 'automation.automated_cam_planning', 'plan_cam')",
    [user.id, id],
  );
  projects[user.id] = [...(projects[user.id] ?? []), id];
  return id;
}

/** Blobs, a workpiece and a job in the project, as the owner (as saveWorkpiece stores them). */
async function seedWorkpiece(user: TestUser, projectId: string): Promise<void> {
  const part = await partC();
  const blob = async (bytes: Buffer, type: string) =>
    (
      await db.owner.query<{ id: string }>(
        `insert into app_private.blobs (user_id, sha256, size, content_type, bytes)
       values ($1, sha256($2), length($2), $3, $2) returning id`,
        [user.id, bytes, type],
      )
    ).rows[0]!.id;
  const blobs = {
    original: await blob(part.original, "model/stl"),
    mesh: await blob(part.glb, "model/gltf-binary"),
    thumbnail: await blob(part.png, "image/png"),
  };
  const w = part.ingested;
  const workpiece = (
    await db.owner.query<{ id: string }>(
      `insert into app_public.workpieces (project_id, user_id, format, units_read, bbox_min, bbox_max, volume_mm3, face_count,
       triangle_count, closed_solid, original_blob_id, mesh_blob_id, thumbnail_blob_id)
     values ($1, $2, 'stl', 'unknown', $3, $4, $5, 0, $6, true, $7, $8, $9) returning id`,
      [
        projectId,
        user.id,
        w.bbox.min,
        w.bbox.max,
        w.volumeMm3,
        w.triangleCount,
        blobs.original,
        blobs.mesh,
        blobs.thumbnail,
      ],
    )
  ).rows[0]!.id;
  const job = (
    await db.owner.query<{ id: string }>(
      "insert into app_public.jobs (project_id, user_id, workpiece_id, source) values ($1, $2, $3, 'workpiece') returning id",
      [projectId, user.id, workpiece],
    )
  ).rows[0]!.id;
  seeded[user.id] = { blobs, workpiece, job };
}

before(async () => {
  db = await createTestDatabase();
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  // rows in every app_public table, for both users
  for (const user of [alice, bob]) {
    await seedWorkpiece(user, await seedProject(user, "first"));
    await seedProject(user, "second");
    const library = await db.owner.query<{ id: string }>(
      "insert into app_public.equipment_libraries (user_id, name) values ($1, 'Extra') returning id",
      [user.id],
    );
    await db.owner.query(
      `insert into app_public.library_assemblies (library_id, id, user_id, position, name, body)
       values ($1, gen_random_uuid(), $2, 0, 'Assembly', '{"components": []}')`,
      [library.rows[0]!.id, user.id],
    );
    await db.owner.query(
      "insert into app_public.holders (user_id, name, stacking_group, body) values ($1, 'ER32', 'Holder', '{}')",
      [user.id],
    );
    await db.owner.query(
      "insert into app_public.tools (user_id, name, tool_type, diameter_mm, body) values ($1, 'D6', 'BallEndMill', 6, '{}')",
      [user.id],
    );
    await db.owner.query(
      `insert into app_public.machine_quote_configs (user_id, product_id, mhr_value, mhr_source, setup_costs)
       values ($1, 'vmc-850-fanuc', 70, 'manual', '[{"name": "Vice", "value": 45, "unit": "EUR"}]')`,
      [user.id],
    );
  }
  // webhooks: an endpoint, and a task event that makes a delivery with one attempt
  for (const user of [alice, bob]) {
    const endpoint = await db.owner.query<{ id: string }>(
      "insert into app_public.webhook_endpoints (user_id, url) values ($1, 'https://example.com/hooks') returning id",
      [user.id],
    );
    const task = await db.owner.query<{ id: string }>(
      "insert into app_public.tasks (user_id, project_id, task_name, worker_task) values ($1, $2, 'test.webhook', 'test_idle') returning id",
      [user.id, projects[user.id]![0]],
    );
    await db.owner.query("update app_public.tasks set status = 'cancelled' where id = $1", [task.rows[0]!.id]);
    const delivery = await db.owner.query<{ id: string }>(
      "select id from app_public.webhook_deliveries where endpoint_id = $1",
      [endpoint.rows[0]!.id],
    );
    await db.owner.query("select app_private.record_webhook_attempt($1, 1, now(), 200, 12, null, false, null, now())", [
      delivery.rows[0]!.id,
    ]);
  }
  await db.owner.query(
    "insert into app_public.materials (id, name, category, density_kg_m3, price_per_kg, is_public) values ('Inconel718', 'Inconel 718', 'nickel', 8190, 45, false)",
  );
  await db.owner.query("insert into app_public.user_materials (user_id, material_id) values ($1, 'Inconel718')", [
    bob.id,
  ]);
  // a deleted project: its row exists, no policy shows it
  const gone = await seedProject(alice, "gone");
  await db.owner.query("update app_public.projects set deleted_at = now() where id = $1", [gone]);
  projects[alice.id] = projects[alice.id]!.filter((id) => id !== gone);

  app = new pg.Client({ connectionString: db.appUrl });
  await app.connect();
  appRole = (await app.query<{ role: string }>("select current_user as role")).rows[0]!.role;
});
after(async () => {
  await app.end();
  await db.drop();
});

/** Every table and view of a schema, from information_schema as the owner (who sees them all). */
async function relationsOf(schema: string): Promise<string[]> {
  const { rows } = await db.owner.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = $1 order by table_name",
    [schema],
  );
  return rows.map((r) => r.name);
}

describe("the API role's attributes", () => {
  it("is not a superuser, has no BYPASSRLS and inherits neither from a role it belongs to", async () => {
    const { rows } = await db.owner.query<{
      rolsuper: boolean;
      rolbypassrls: boolean;
      rolcreaterole: boolean;
      rolcreatedb: boolean;
    }>("select rolsuper, rolbypassrls, rolcreaterole, rolcreatedb from pg_roles where rolname = $1", [appRole]);
    assert.deepEqual(rows, [{ rolsuper: false, rolbypassrls: false, rolcreaterole: false, rolcreatedb: false }]);
    const granted = await db.owner.query<{ rolname: string }>(
      `select r.rolname from pg_roles r
        where pg_has_role($1, r.oid, 'member') and r.rolname <> $1 and (r.rolsuper or r.rolbypassrls)`,
      [appRole],
    );
    assert.deepEqual(granted.rows, [], "member of a superuser or BYPASSRLS role");
    const attrs = await app.query<{ is_superuser: string; row_security: string }>(
      "select current_setting('is_superuser') as is_superuser, current_setting('row_security') as row_security",
    );
    assert.deepEqual(attrs.rows[0], { is_superuser: "off", row_security: "on" });
  });

  it("is ensured by many processes starting at once without an error, and stays unprivileged", async () => {
    // every process start runs ensureAppRole; the role belongs to the cluster, so parallel
    // test files and a fleet's processes alter it concurrently
    await Promise.all(Array.from({ length: 16 }, () => ensureAppRole(db.ownerUrl, appRole)));
    const { rows } = await db.owner.query(
      "select rolsuper, rolbypassrls, rolcanlogin from pg_roles where rolname = $1",
      [appRole],
    );
    assert.deepEqual(rows, [{ rolsuper: false, rolbypassrls: false, rolcanlogin: true }]);
    const probe = new pg.Client({ connectionString: db.appUrl });
    await probe.connect();
    await probe.end();
  });

  it("owns no table, view or function in app_public or app_private (an owner bypasses RLS)", async () => {
    const { rows } = await db.owner.query<{ name: string }>(
      `select c.oid::regclass::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('app_public', 'app_private') and pg_get_userbyid(c.relowner) = $1
       union all
       select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('app_public', 'app_private') and pg_get_userbyid(p.proowner) = $1`,
      [appRole],
    );
    assert.deepEqual(rows, []);
  });
});

describe("RLS on app_public", () => {
  it("is enabled on every app_public table", async () => {
    const { rows } = await db.owner.query<{ relname: string; relrowsecurity: boolean }>(
      `select c.relname, c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'app_public' and c.relkind in ('r', 'p') order by c.relname`,
    );
    assert.ok(rows.length >= 10, `found only ${rows.length} tables`);
    assert.deepEqual(
      rows.filter((r) => !r.relrowsecurity).map((r) => r.relname),
      [],
      "tables without RLS",
    );
  });

  it("has no view that reads as its owner (a view bypasses its tables' RLS unless security_invoker)", async () => {
    const { rows } = await db.owner.query<{ relname: string }>(
      `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'app_public' and c.relkind in ('v', 'm')
          and (c.relkind = 'm' or not coalesce('security_invoker=true' = any(c.reloptions), false))`,
    );
    assert.deepEqual(
      rows.map((r) => r.relname),
      [],
    );
  });

  it("shows the API role no row of any app_public table without a user, though every table has rows", async () => {
    // the tool catalogue is the one table of public reference data: its policy is `true` so
    // its search indexes stay usable (migration 000005 says why)
    const relations = (await relationsOf("app_public")).filter(
      (relation) => !PUBLIC_REFERENCE_TABLES.includes(relation),
    );
    assert.ok(relations.includes("projects") && relations.includes("tasks") && relations.includes("users"));
    const empty: string[] = [];
    const visible: string[] = [];
    for (const relation of relations) {
      const ident = `app_public.${app.escapeIdentifier(relation)}`;
      const owned = await db.owner.query<{ n: number }>(`select count(*)::int as n from ${ident}`);
      if (owned.rows[0]!.n === 0) empty.push(relation);
      await app.query("begin");
      try {
        const seen = await app.query<{ n: number }>(`select count(*)::int as n from ${ident}`);
        if (seen.rows[0]!.n !== 0) visible.push(`${relation} (${seen.rows[0]!.n} rows)`);
      } catch (error) {
        // no SELECT grant at all is as good as no row
        if (!isPgError(error) || error.code !== "42501") throw error;
      } finally {
        await app.query("rollback");
      }
    }
    assert.deepEqual(empty, [], "give these tables rows in this file's before() so the check means something");
    assert.deepEqual(visible, [], "visible to the API role without a request identity");
  });

  it("shows the tool catalogue, and only that reference table, to the API role without a user, and lets it write nothing", async () => {
    const { rows } = await app.query<{ n: number }>("select count(*)::int as n from app_public.catalogue_entries");
    assert.ok(rows[0]!.n > 3000, `${rows[0]!.n} catalogue entries`);
    await app.query("begin");
    try {
      const denied = await refusal(app, "delete from app_public.catalogue_entries");
      assert.equal(denied.code, "42501");
    } finally {
      await app.query("rollback");
    }
  });

  it("shows the seeded machines and materials only once a user is set", async () => {
    const without = await app.query<{ machines: number; materials: number }>(
      "select (select count(*)::int from app_public.machines) as machines, (select count(*)::int from app_public.materials) as materials",
    );
    assert.deepEqual(without.rows[0], { machines: 0, materials: 0 });
    const seeded = await db.owner.query<{ machines: number; public_materials: number }>(
      "select (select count(*)::int from app_public.machines) as machines, (select count(*)::int from app_public.materials where is_public) as public_materials",
    );
    await asUser(alice.id, async (client) => {
      const { rows } = await client.query<{ machines: number; materials: number; private: number }>(
        `select (select count(*)::int from app_public.machines) as machines,
                (select count(*)::int from app_public.materials) as materials,
                (select count(*)::int from app_public.materials where id = 'Inconel718') as private`,
      );
      assert.equal(rows[0]!.machines, seeded.rows[0]!.machines);
      assert.ok(rows[0]!.machines >= 6);
      assert.equal(rows[0]!.materials, seeded.rows[0]!.public_materials, "public materials only");
      assert.equal(rows[0]!.private, 0, "a material granted to bob only");
    });
    await asUser(bob.id, async (client) => {
      const { rows } = await client.query("select id from app_public.materials where id = 'Inconel718'");
      assert.equal(rows.length, 1, "bob sees the material granted to him");
    });
  });

  it("shows a user only their own rows in projects, tasks, quote_jobs, equipment_libraries and quote_settings", async () => {
    const expected = async (table: string) => {
      const live = ["quote_jobs", "workpieces", "jobs"].includes(table)
        ? " and exists (select 1 from app_public.projects p where p.id = t.project_id and p.deleted_at is null)"
        : "";
      const deleted = table === "projects" ? " and t.deleted_at is null" : "";
      const { rows } = await db.owner.query<{ n: number }>(
        `select count(*)::int as n from app_public.${table} t where t.user_id = $1${live}${deleted}`,
        [alice.id],
      );
      return rows[0]!.n;
    };
    await asUser(alice.id, async (client) => {
      for (const table of [
        "projects",
        "tasks",
        "quote_jobs",
        "equipment_libraries",
        "quote_settings",
        "users",
        "user_machines",
        "workpieces",
        "jobs",
      ]) {
        const idColumn = table === "users" ? "id" : "user_id";
        const { rows } = await client.query<{ owner: string }>(
          `select ${idColumn}::text as owner from app_public.${table}`,
        );
        assert.ok(rows.length > 0, `${table}: alice sees her rows`);
        assert.deepEqual([...new Set(rows.map((r) => r.owner))], [alice.id], `${table}: only alice's rows`);
        if (table !== "users" && table !== "user_machines")
          assert.equal(rows.length, await expected(table), `${table}: all of alice's rows`);
      }
      const { rows } = await client.query<{ id: string }>("select id from app_public.projects order by seq");
      assert.deepEqual(
        rows.map((r) => r.id),
        projects[alice.id],
        "her live projects, not the deleted one",
      );
      const bobs = await client.query("select 1 from app_public.projects where id = any($1::uuid[])", [
        projects[bob.id],
      ]);
      assert.equal(bobs.rowCount, 0);
    });
  });

  it("keeps the identity to its transaction", async () => {
    await app.query("begin");
    await app.query("select set_config('app.user_id', $1, true)", [alice.id]);
    const inside = await app.query("select 1 from app_public.projects");
    await app.query("commit");
    const outside = await app.query("select 1 from app_public.projects");
    assert.ok((inside.rowCount ?? 0) > 0);
    assert.equal(outside.rowCount, 0);
  });

  it("refuses a project inserted for another user and writes nothing", async () => {
    await asUser(alice.id, async (client) => {
      const error = await refusal(
        client,
        "insert into app_public.projects (user_id, name, customer, product_id) values ($1, 'planted', 'X', 'vmc-850-fanuc')",
        [bob.id],
      );
      // RLS's WITH CHECK, or before it the reference check, which sees only alice's machines
      assert.ok(
        (error.code === "42501" && /row-level security/.test(error.message)) || error.code === "SWREF",
        `${error.code} ${error.message}`,
      );
      // the same holds with no trigger in front of the policy
      const direct = await refusal(
        client,
        "insert into app_public.equipment_libraries (user_id, name) values ($1, 'planted')",
        [bob.id],
      );
      assert.equal(direct.code, "42501");
      assert.match(direct.message, /row-level security/);
      // and a row of hers cannot be handed over
      const handOver = await refusal(
        client,
        "update app_public.equipment_libraries set user_id = $1 where user_id = $2",
        [bob.id, alice.id],
      );
      assert.equal(handOver.code, "42501");
      const own = await client.query<{ id: string }>(
        "insert into app_public.projects (name, customer, product_id) values ('mine', 'X', 'vmc-850-fanuc') returning id",
      );
      assert.equal(own.rowCount, 1, "her own project is fine");
    });
    const planted = await db.owner.query("select 1 from app_public.projects where name = 'planted' or name = 'mine'");
    assert.equal(planted.rowCount, 0);
    const library = await db.owner.query("select 1 from app_public.equipment_libraries where name = 'planted'");
    assert.equal(library.rowCount, 0);
  });

  it("refuses a project on a machine not assigned to the user, on insert and on update", async () => {
    await db.owner.query(
      `insert into app_public.machines (product_id, name, control, travel_x_mm, travel_y_mm, travel_z_mm,
         max_spindle_rpm, max_feed_mm_min, tool_slots, default_mhr)
       values ('unassigned-5axis', 'Not yours', 'linuxcnc', 500, 500, 500, 10000, 10000, 10, 100)
       on conflict do nothing`,
    );
    await asUser(alice.id, async (client) => {
      const insert = await refusal(
        client,
        "insert into app_public.projects (name, customer, product_id) values ('p', 'X', 'unassigned-5axis')",
      );
      assert.equal(insert.code, "SWREF", insert.message);
      const update = await refusal(
        client,
        "update app_public.projects set product_id = 'unassigned-5axis' where id = $1",
        [projects[alice.id]![0]],
      );
      assert.equal(update.code, "SWREF", update.message);
      // not a machine she could get herself either
      const assign = await refusal(
        client,
        "insert into app_public.user_machines (user_id, product_id, position) values ($1, 'unassigned-5axis', 99)",
        [alice.id],
      );
      assert.equal(assign.code, "42501");
    });
    const { rows } = await db.owner.query("select 1 from app_public.projects where product_id = 'unassigned-5axis'");
    assert.equal(rows.length, 0);
  });

  it("refuses a task for another user's project or on behalf of another user", async () => {
    await asUser(alice.id, async (client) => {
      const foreign = await refusal(
        client,
        "insert into app_public.tasks (project_id, task_name, worker_task) values ($1, 'automation.automated_cam_planning', 'plan_cam')",
        [projects[bob.id]![0]],
      );
      assert.equal(foreign.code, "42501");
      const asBob = await refusal(
        client,
        "insert into app_public.tasks (user_id, project_id, task_name, worker_task) values ($1, $2, 'x', 'plan_cam')",
        [bob.id, projects[alice.id]![0]],
      );
      assert.equal(asBob.code, "42501");
      const finished = await refusal(client, "update app_public.tasks set status = 'success'");
      assert.equal(finished.code, "42501", "the API role does not move task state");
    });
  });
});

describe("workpieces, jobs and blobs", () => {
  it("refuse a workpiece over another user's blob, a job over another user's workpiece or project, and moving current_job_id by hand", async () => {
    const mine = projects[alice.id]![0]!;
    const bobs = seeded[bob.id]!;
    await asUser(alice.id, async (client) => {
      const blob = await refusal(
        client,
        `insert into app_public.workpieces (project_id, format, units_read, bbox_min, bbox_max, face_count, triangle_count,
           closed_solid, original_blob_id, mesh_blob_id, thumbnail_blob_id)
         values ($1, 'stl', 'unknown', '{0,0,0}', '{1,1,1}', 0, 12, true, $2, $3, $4)`,
        [mine, bobs.blobs.original, bobs.blobs.mesh, bobs.blobs.thumbnail],
      );
      assert.equal(blob.code, "SWREF", blob.message);
      const wrongKind = await refusal(
        client,
        `insert into app_public.workpieces (project_id, format, units_read, bbox_min, bbox_max, face_count, triangle_count,
           closed_solid, original_blob_id, mesh_blob_id, thumbnail_blob_id)
         values ($1, 'stl', 'unknown', '{0,0,0}', '{1,1,1}', 0, 12, true, $2, $2, $2)`,
        [mine, seeded[alice.id]!.blobs.original],
      );
      assert.equal(wrongKind.code, "SWREF", "an STL is not a mesh");
      const workpiece = await refusal(
        client,
        "insert into app_public.jobs (project_id, workpiece_id, source) values ($1, $2, 'workpiece')",
        [mine, bobs.workpiece],
      );
      assert.equal(workpiece.code, "23503", workpiece.message);
      const project = await refusal(client, "insert into app_public.jobs (project_id, source) values ($1, 'stock')", [
        projects[bob.id]![0],
      ]);
      assert.ok(["SWREF", "42501"].includes(project.code), project.message);
      const pointer = await refusal(client, "update app_public.projects set current_job_id = $1 where id = $2", [
        seeded[alice.id]!.job,
        mine,
      ]);
      assert.equal(pointer.code, "42501", "only a new job moves current_job_id");
      for (const sql of [
        "update app_public.jobs set stock = null",
        "delete from app_public.jobs",
        "delete from app_public.workpieces",
      ]) {
        assert.equal((await refusal(client, sql)).code, "42501", sql);
      }
    });
  });

  it("push the current job onto the undo stack on every insert: the database sets the parent, and the new job becomes current", async () => {
    const mine = projects[alice.id]![0]!;
    await asUser(alice.id, async (client) => {
      const planted = await refusal(
        client,
        "insert into app_public.jobs (project_id, parent_job_id, source) values ($1, null, 'stock')",
        [mine],
      );
      assert.equal(planted.code, "42501", "parent_job_id is not the API role's to set");
      const { rows } = await client.query<{ id: string; parent_job_id: string; machine: { product_id: string } }>(
        "insert into app_public.jobs (project_id, workpiece_id, source) values ($1, $2, 'stock') returning id, parent_job_id, machine",
        [mine, seeded[alice.id]!.workpiece],
      );
      assert.equal(rows[0]!.parent_job_id, seeded[alice.id]!.job);
      assert.equal(rows[0]!.machine.product_id, "vmc-850-fanuc");
      const project = await client.query<{ current_job_id: string }>(
        "select current_job_id from app_public.projects where id = $1",
        [mine],
      );
      assert.equal(project.rows[0]!.current_job_id, rows[0]!.id);
    });
  });

  it("lets the blob functions reach only the caller's blobs, and none without an identity", async () => {
    const bobs = seeded[bob.id]!;
    await asUser(alice.id, async (client) => {
      assert.equal((await client.query("select * from app_public.read_blob($1)", [bobs.blobs.mesh])).rowCount, 0);
      assert.equal((await client.query("select * from app_public.stat_blob($1)", [bobs.blobs.mesh])).rowCount, 0);
      const deleted = await client.query<{ ok: boolean }>("select app_public.delete_blob($1) as ok", [bobs.blobs.mesh]);
      assert.equal(deleted.rows[0]!.ok, false);
      const signed = await client.query<{ s: Buffer | null }>(
        "select app_public.presign_blob($1, 'mesh', extract(epoch from now())::bigint + 60) as s",
        [bobs.blobs.mesh],
      );
      assert.equal(signed.rows[0]!.s, null);
      const own = await client.query<{ ok: boolean }>("select app_public.delete_blob($1) as ok", [
        seeded[alice.id]!.blobs.mesh,
      ]);
      assert.equal(own.rows[0]!.ok, false, "a blob in use is not deleted");
      const found = await client.query<{ id: string | null }>(
        "select app_public.find_blob(b.sha256, b.content_type) as id from app_public.stat_blob($1) b",
        [seeded[alice.id]!.blobs.mesh],
      );
      assert.equal(found.rows[0]!.id, seeded[alice.id]!.blobs.mesh);
    });
    await app.query("begin");
    try {
      assert.equal((await app.query("select * from app_public.read_blob($1)", [bobs.blobs.mesh])).rowCount, 0);
      const put = await refusal(app, "select * from app_public.put_blob('\\x00', 'image/png')");
      assert.equal(put.code, "42501");
      const sign = await refusal(app, "select app_public.sign_job_file(sha256('\\x00'))");
      assert.equal(sign.code, "42501");
    } finally {
      await app.query("rollback");
    }
  });

  it("refuse a job whose plan is another user's blob or not a plan, or comes without its summary or stock; a plan in use is not deleted", async () => {
    const mine = projects[alice.id]![0]!;
    const planBlob = async (user: TestUser) =>
      (
        await db.owner.query<{ id: string }>(
          `insert into app_private.blobs (user_id, sha256, size, content_type, bytes)
         values ($1, sha256($2), length($2), 'application/vnd.swarf.cam-plan+gzip', $2) returning id`,
          [user.id, Buffer.from(`plan of ${user.id}`)],
        )
      ).rows[0]!.id;
    const bobsPlan = await planBlob(bob);
    const alicesPlan = await planBlob(alice);
    const insertPlanJob = `insert into app_public.jobs (project_id, workpiece_id, source, stock, plan_blob_id, plan_summary)
      values ($1, $2, 'plan', $3, $4, $5) returning id`;
    const stock = { type: "bounding_box" };
    await asUser(alice.id, async (client) => {
      const workpiece = seeded[alice.id]!.workpiece;
      const foreign = await refusal(client, insertPlanJob, [mine, workpiece, stock, bobsPlan, {}]);
      assert.equal(foreign.code, "SWREF", foreign.message);
      const notAPlan = await refusal(client, insertPlanJob, [mine, workpiece, stock, seeded[alice.id]!.blobs.mesh, {}]);
      assert.equal(notAPlan.code, "SWREF", notAPlan.message);
      assert.equal(
        (await refusal(client, insertPlanJob, [mine, workpiece, stock, alicesPlan, null])).code,
        "23514",
        "a plan without summary",
      );
      assert.equal(
        (await refusal(client, insertPlanJob, [mine, workpiece, null, alicesPlan, {}])).code,
        "23514",
        "a plan without stock",
      );
      const saved = await client.query(insertPlanJob, [mine, workpiece, stock, alicesPlan, {}]);
      assert.equal(saved.rowCount, 1);
      const deleted = await client.query<{ ok: boolean }>("select app_public.delete_blob($1) as ok", [alicesPlan]);
      assert.equal(deleted.rows[0]!.ok, false, "a job's plan is a blob in use");
    });
  });

  it("computes HMAC-SHA256 as RFC 4231 says", async () => {
    const vectors = [
      // test cases 1, 2 and 6 of RFC 4231 (6: a key longer than the block)
      [
        "0b".repeat(20),
        Buffer.from("Hi There").toString("hex"),
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
      ],
      [
        Buffer.from("Jefe").toString("hex"),
        Buffer.from("what do ya want for nothing?").toString("hex"),
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
      ],
      [
        "aa".repeat(131),
        Buffer.from("Test Using Larger Than Block-Size Key - Hash Key First").toString("hex"),
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
      ],
    ];
    for (const [key, message, mac] of vectors) {
      const { rows } = await db.owner.query<{ mac: Buffer }>(
        "select app_private.hmac_sha256(decode($1, 'hex'), decode($2, 'hex')) as mac",
        [key, message],
      );
      assert.equal(rows[0]!.mac.toString("hex"), mac);
    }
  });
});

describe("automation tasks", () => {
  it("let cancel_task reach only the caller's own tasks, and none without an identity", async () => {
    const bobsTask = (
      await db.owner.query<{ id: string }>("select id from app_public.tasks where user_id = $1 limit 1", [bob.id])
    ).rows[0]!.id;
    const alicesTask = (
      await db.owner.query<{ id: string }>(
        "select id from app_public.tasks where user_id = $1 and status = 'queued' limit 1",
        [alice.id],
      )
    ).rows[0]!.id;
    const cancel = "select * from app_public.cancel_task($1, 'abcd', '\\x00'::bytea)";
    await asUser(alice.id, async (client) => {
      assert.equal((await client.query(cancel, [bobsTask])).rowCount, 0, "bob's task is not alice's to cancel");
      const own = await client.query(cancel, [alicesTask]);
      assert.deepEqual(own.rows, [{ outcome: "cancelled", task_status: "cancelled" }]);
    });
    await app.query("begin");
    try {
      assert.equal((await app.query(cancel, [bobsTask])).rowCount, 0, "no identity, no task");
    } finally {
      await app.query("rollback");
    }
    const { rows } = await db.owner.query(
      "select status, cancel_requested_at from app_public.tasks where id = any($1::uuid[])",
      [[bobsTask, alicesTask]],
    );
    assert.deepEqual(
      rows,
      [
        { status: "queued", cancel_requested_at: null },
        { status: "queued", cancel_requested_at: null },
      ],
      "rolled back, and bob's untouched",
    );
  });

  it("keep one queued or running automation task per project, whoever inserts it; other tasks are not limited", async () => {
    const projectId = projects[alice.id]![0]!;
    const second = await db.owner
      .query(
        "insert into app_public.tasks (user_id, project_id, task_name, worker_task) values ($1, $2, 'automation.automated_cam_planning', 'plan_cam')",
        [alice.id, projectId],
      )
      .then(
        () => null,
        (error: unknown) => error as PgError,
      );
    assert.equal(second?.code, "23505");
    const owner = await db.owner.connect();
    try {
      await owner.query("begin");
      for (let i = 0; i < 2; i += 1) {
        await owner.query(
          "insert into app_public.tasks (user_id, project_id, task_name, worker_task) values ($1, $2, 'workpiece.tessellate', 'tessellate')",
          [alice.id, projectId],
        );
      }
    } finally {
      await owner.query("rollback");
      owner.release();
    }
  });
});

describe("app_private", () => {
  it("is closed to the API role: every table and view answers permission denied", async () => {
    const relations = await relationsOf("app_private");
    assert.ok(relations.includes("api_keys"));
    for (const relation of relations) {
      const error = await asUser(alice.id, (client) =>
        refusal(client, `select * from app_private.${client.escapeIdentifier(relation)} limit 1`),
      );
      assert.equal(error.code, "42501", `${relation}: ${error.message}`);
    }
    const keys = await asUser(alice.id, (client) => refusal(client, "select key_hash from app_private.api_keys"));
    assert.match(keys.message, /permission denied/);
  });

  it("has no function the API role may call, directly or through an EXECUTE grant", async () => {
    const { rows } = await db.owner.query<{ signature: string; call: string; executable: boolean }>(
      `select p.oid::regprocedure::text as signature,
              format('select %s.%s(%s)', quote_ident(n.nspname), quote_ident(p.proname),
                (select string_agg(format('null::%s', format_type(t, null)), ', ')
                   from unnest(p.proargtypes) with ordinality as a(t, i))) as call,
              has_function_privilege($1, p.oid, 'EXECUTE') as executable
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'app_private' order by 1`,
      [appRole],
    );
    assert.ok(rows.some((r) => r.signature.startsWith("app_private.create_user(")));
    for (const fn of rows) {
      const error = await asUser(alice.id, (client) => refusal(client, fn.call));
      assert.equal(error.code, "42501", `${fn.signature}: ${error.message}`);
    }
    assert.deepEqual(
      rows.filter((r) => r.executable).map((r) => r.signature),
      [],
      "EXECUTE granted to the API role or PUBLIC",
    );
    assert.equal(
      (
        await db.owner.query<{ usage: boolean }>("select has_schema_privilege($1, 'app_private', 'USAGE') as usage", [
          appRole,
        ])
      ).rows[0]!.usage,
      false,
    );
  });

  it("lets app_public functions be called only by those granted them, not by PUBLIC", async () => {
    const { rows } = await db.owner.query<{ signature: string }>(
      `select p.oid::regprocedure::text as signature
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'app_public' and has_function_privilege('public', p.oid, 'EXECUTE') order by 1`,
    );
    assert.deepEqual(
      rows.map((r) => r.signature),
      [],
    );
  });
});

describe("machine quote configurations", () => {
  it("shows a user only their own, and lets them write one only for a machine assigned to them", async () => {
    await db.owner.query(
      `insert into app_public.machines (product_id, name, control, travel_x_mm, travel_y_mm, travel_z_mm, max_spindle_rpm, max_feed_mm_min, tool_slots, default_mhr)
       values ('bob-only-mill', 'Bob only', 'linuxcnc', 500, 400, 300, 10000, 5000, 10, 40) on conflict do nothing`,
    );
    await db.owner.query(
      "insert into app_public.user_machines (user_id, product_id, position) values ($1, 'bob-only-mill', 100) on conflict do nothing",
      [bob.id],
    );
    await asUser(alice.id, async (client) => {
      const { rows } = await client.query<{ user_id: string; mhr_value: string }>(
        "select user_id, mhr_value from app_public.machine_quote_configs",
      );
      assert.deepEqual(rows, [{ user_id: alice.id, mhr_value: "70" }]);
      const denied = await refusal(
        client,
        "insert into app_public.machine_quote_configs (product_id, mhr_value, mhr_source) values ('bob-only-mill', 1, 'manual')",
      );
      assert.equal(denied.code, "42501");
      const foreign = await refusal(
        client,
        "insert into app_public.machine_quote_configs (user_id, product_id) values ($1, 'vmc-760-haas')",
        [bob.id],
      );
      assert.equal(foreign.code, "42501");
      const changed = await client.query(
        "update app_public.machine_quote_configs set mhr_value = 1 where user_id = $1",
        [bob.id],
      );
      assert.equal(changed.rowCount, 0);
    });
  });
});
