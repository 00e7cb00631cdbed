/**
 * The API's database role. Roles belong to the cluster, not to a database, so they are made
 * here rather than in a migration. The API connects as this role: LOGIN, no superuser, no
 * BYPASSRLS, owning nothing, so every read and write goes through RLS.
 *
 * Its password is derived from the owner's password and the role name: every process of a
 * fleet that shares DATABASE_URL computes the same one, nobody has to hand it out, and
 * several databases of one cluster (the tests make one per file) agree on it. A DBA who
 * manages roles sets APP_DATABASE_URL instead.
 */
import { createHash } from "node:crypto";
import pg from "pg";

export function derivedAppUrl(ownerUrl: string, role: string): string {
  const url = new URL(ownerUrl);
  url.username = role;
  url.password = derivedPassword(ownerUrl, role);
  return url.toString();
}

function derivedPassword(ownerUrl: string, role: string): string {
  const owner = new URL(ownerUrl);
  return createHash("sha256")
    .update(`swarf app role\0${decodeURIComponent(owner.password)}\0${role}`)
    .digest("base64url");
}

/**
 * Creates the role if it is missing and sets its derived password. Needs CREATEROLE on the
 * owner connection unless the role already exists with that password.
 */
export async function ensureAppRole(ownerUrl: string, role: string): Promise<void> {
  // Processes starting together (a fleet, parallel test files, CLI runs) alter the same
  // cluster-wide role at once, and Postgres refuses all but one ALTER ROLE with "tuple
  // concurrently updated". They all set the same attributes and password: try again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await ensureAppRoleOnce(ownerUrl, role);
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      if (attempt >= 10 || code !== "XX000" || !/concurrently updated/.test(message ?? "")) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 50 * attempt));
    }
  }
}

async function ensureAppRoleOnce(ownerUrl: string, role: string): Promise<void> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const password = derivedPassword(ownerUrl, role);
    const ident = client.escapeIdentifier(role);
    const existing = await client.query<{ rolsuper: boolean; rolbypassrls: boolean }>(
      "select rolsuper, rolbypassrls from pg_roles where rolname = $1",
      [role],
    );
    const attributes = "login nosuperuser nocreatedb nocreaterole nobypassrls noinherit";
    if (existing.rowCount === 0) {
      await client.query(`create role ${ident} ${attributes} password ${client.escapeLiteral(password)}`);
    } else {
      const row = existing.rows[0];
      if (row && (row.rolsuper || row.rolbypassrls)) {
        throw new Error(`role ${role} is a superuser or bypasses RLS; the API must not connect as it`);
      }
      await client.query(`alter role ${ident} ${attributes} password ${client.escapeLiteral(password)}`);
    }
  } catch (error) {
    // role creation races between processes starting together are harmless
    const code = (error as { code?: string }).code;
    if (code !== "23505" && code !== "42710") throw error;
  } finally {
    await client.end();
  }
}
