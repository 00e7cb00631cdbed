/**
 * Users, as the owner (CLI, sign-up). A new user gets machines, a default library (holding the
 * starter library unless asked not to) and quote settings: app_private.create_user.
 */
import type { Queryable } from "../request-transaction.ts";

export interface UserRow {
  id: string;
  email: string;
  created_at: Date;
}

export interface CreateUserOptions {
  /** false: the default library starts empty (`cli user create --empty-library`). Default true */
  starterLibrary?: boolean;
}

export async function createUser(db: Queryable, email: string, options: CreateUserOptions = {}): Promise<UserRow> {
  const { rows } = await db.query<UserRow>("select id, email, created_at from app_private.create_user($1, $2)", [
    email,
    options.starterLibrary ?? true,
  ]);
  return rows[0]!;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    "select id, email, created_at from app_public.users where lower(email) = lower($1)",
    [email],
  );
  return rows[0] ?? null;
}

/** The user's library of that id, or (no id) the user's default one; null when there is none. */
export async function findUserLibrary(
  db: Queryable,
  userId: string,
  libraryId?: string,
): Promise<{ id: string; name: string } | null> {
  const { rows } = await db.query<{ id: string; name: string }>(
    libraryId === undefined
      ? "select id, name from app_public.equipment_libraries where user_id = $1 and is_default"
      : "select id, name from app_public.equipment_libraries where user_id = $1 and id = $2",
    libraryId === undefined ? [userId] : [userId, libraryId],
  );
  return rows[0] ?? null;
}

/**
 * Adds to the library the starter assemblies it lacks (and their holders and tools the user
 * lacks); a starter assembly whose tool was deleted gets it back. Returns what was added or
 * restored, in slot order: nothing when the library has the whole set.
 */
export async function addStarterAssemblies(db: Queryable, libraryId: string): Promise<{ id: string; name: string }[]> {
  const { rows } = await db.query<{ id: string; name: string }>(
    "select id, name from app_private.add_starter_assemblies($1)",
    [libraryId],
  );
  return rows;
}
