/**
 * Every foreign key of our schemas has an index on the referencing table that leads with one of
 * its columns (the lookup a delete of the referenced row makes is equality on all of them).
 * Without one, deleting referenced rows scans the referencing table once per row: deleting
 * 200,000 webhook events cascaded to their deliveries for 11 minutes.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let db: TestDatabase;
before(async () => {
  db = await createTestDatabase();
});
after(async () => {
  await db?.drop();
});

describe("foreign keys", () => {
  it("each have an index on the referencing table that starts with one of their columns", async () => {
    const { rows } = await db.owner.query<{ constraint: string }>(
      `select c.conrelid::regclass::text || '.' || c.conname as constraint
         from pg_constraint c
         join pg_namespace n on n.oid = c.connamespace
        where c.contype = 'f' and n.nspname in ('app_public', 'app_private')
          and not exists (select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = any(c.conkey))
        order by 1`,
    );
    assert.deepEqual(
      rows.map((row) => row.constraint),
      [],
    );
  });
});
