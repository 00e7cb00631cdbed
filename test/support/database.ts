/**
 * A database of its own for one test file: a clone of the migrated template that
 * scripts/test.ts prepared, dropped when the file is done.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { readEnv } from "../../config/env.ts";
import { createPool } from "../../db/pools.ts";
import { derivedAppUrl } from "../../db/roles.ts";

export interface TestDatabase {
  name: string;
  /** superuser/owner connection: what workers and the CLI use */
  ownerUrl: string;
  /** the API role's connection (RLS applies) */
  appUrl: string;
  /** an owner pool for setting up and inspecting state */
  owner: pg.Pool;
  drop(): Promise<void>;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests with npm test`);
  return value;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = required("SWARF_TEST_ADMIN_URL");
  const template = required("SWARF_TEST_TEMPLATE");
  const name = `swarf_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // the template may not be copied twice at the same moment
    await admin.query("select pg_advisory_lock(727271)");
    await admin.query(`create database ${admin.escapeIdentifier(name)} template ${admin.escapeIdentifier(template)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const ownerUrl = url.toString();
  const owner = createPool(ownerUrl, 5, "swarf-test-owner");
  return {
    name,
    ownerUrl,
    appUrl: derivedAppUrl(ownerUrl, readEnv().APP_DB_ROLE),
    owner,
    async drop() {
      await owner.end();
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`);
      await client.end();
    },
  };
}
