import { it } from "node:test";
import pg from "pg";
import { createTestDatabase } from "../support/database.ts";
it("explore", async () => {
  const db = await createTestDatabase();
  const q = async (sql: string) => console.log(sql, "\n", (await db.owner.query(sql)).rows);
  await q(`select n.nspname, p.proname, p.proacl, p.prosecdef from pg_proc p join pg_namespace n on n.oid=p.pronamespace where n.nspname in ('app_public','app_private') order by 1,2`);
  await q(`select n.nspname, n.nspacl from pg_namespace n where nspname in ('app_public','app_private','graphile_worker','graphile_migrate','public')`);
  await q(`select table_schema, table_name, table_type from information_schema.tables where table_schema in ('app_public','app_private') order by 1,2`);
  await q(`select c.relname, c.relkind, c.relacl, c.relrowsecurity from pg_class c join pg_namespace n on n.oid=c.relnamespace where n.nspname='graphile_worker' and c.relkind in ('r','v')`);
  await q(`select rolname, rolsuper, rolbypassrls from pg_roles`);
  const c = new pg.Client({ connectionString: db.appUrl }); await c.connect();
  for (const s of ["select current_user", "select count(*) from graphile_worker.jobs", "select app_private.create_user('x@y')", "select * from app_private.api_keys"]) {
    try { console.log(s, (await c.query(s)).rows); } catch (e) { console.log(s, (e as {code:string}).code, (e as Error).message); }
  }
  await c.end();
  await db.drop();
});
