/** Users, as the owner (CLI, sign-up). A new user gets machines, a library and quote settings. */
import type { Queryable } from "../request-transaction.ts";

export interface UserRow {
  id: string;
  email: string;
  created_at: Date;
}

export async function createUser(db: Queryable, email: string): Promise<UserRow> {
  const { rows } = await db.query<UserRow>("select id, email, created_at from app_private.create_user($1)", [email]);
  return rows[0]!;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    "select id, email, created_at from app_public.users where lower(email) = lower($1)",
    [email],
  );
  return rows[0] ?? null;
}
