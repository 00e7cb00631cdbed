/**
 * Web app sessions and login links (sql: 000014). Signing in, checking and ending sessions run
 * as the API role through SECURITY DEFINER functions; passwords and links are set as the owner
 * (CLI).
 */
import type { Queryable } from "../request-transaction.ts";

export interface SignInCredentials {
  user_id: string;
  email: string;
  /** null: the user has no password (sign in with a login link) */
  password_hash: string | null;
}

export interface SessionUser {
  user_id: string;
  email: string;
}

export interface LiveSession extends SessionUser {
  csrf_token: string;
}

/** how long a new session lives: idle and absolute, in seconds */
export interface SessionLifetime {
  idleSeconds: number;
  maxSeconds: number;
}

export async function signInCredentials(db: Queryable, email: string): Promise<SignInCredentials | null> {
  const { rows } = await db.query<SignInCredentials>(
    "select user_id, email, password_hash from app_public.sign_in_credentials($1)",
    [email],
  );
  return rows[0] ?? null;
}

export async function startSession(
  db: Queryable,
  session: { userId: string; id: Buffer; csrfToken: string } & SessionLifetime,
): Promise<void> {
  await db.query("select app_public.start_session($1, $2, $3, $4, $5)", [
    session.userId,
    session.id,
    session.csrfToken,
    session.idleSeconds,
    session.maxSeconds,
  ]);
}

export async function authenticateSession(db: Queryable, id: Buffer): Promise<LiveSession | null> {
  const { rows } = await db.query<LiveSession>({
    name: "authenticate_session",
    text: "select user_id, email, csrf_token from app_public.authenticate_session($1)",
    values: [id],
  });
  return rows[0] ?? null;
}

export async function endSession(db: Queryable, id: Buffer): Promise<boolean> {
  const { rows } = await db.query<{ ended: boolean }>("select app_public.end_session($1) as ended", [id]);
  return rows[0]?.ended === true;
}

/** Marks the link used and starts the session in one statement; null for an unknown, used or expired link. */
export async function redeemLoginLink(
  db: Queryable,
  link: { tokenHash: Buffer; sessionId: Buffer; csrfToken: string } & SessionLifetime,
): Promise<SessionUser | null> {
  const { rows } = await db.query<SessionUser>(
    "select user_id, email from app_public.redeem_login_link($1, $2, $3, $4, $5)",
    [link.tokenHash, link.sessionId, link.csrfToken, link.idleSeconds, link.maxSeconds],
  );
  return rows[0] ?? null;
}

/**
 * As the owner (CLI): sets or replaces the user's password hash and ends the user's sessions,
 * since a password is reset most often because the old one may be known to someone else. For
 * the same reason it revokes the user's device tokens (sql: 000015): whoever signed in with the
 * old password holds some, and they would spare their guesses at the new one the account's limit.
 * Resolves to the number of sessions ended.
 */
export async function setPasswordHash(db: Queryable, userId: string, hash: string): Promise<number> {
  const { rows } = await db.query<{ ended: number }>(
    `with saved as (
       insert into app_private.user_passwords (user_id, password_hash) values ($1, $2)
         on conflict (user_id) do update set password_hash = excluded.password_hash, updated_at = now()
     ), ended as (
       delete from app_private.sessions where user_id = $1 returning 1
     ), devices as (
       delete from app_private.sign_in_devices where user_id = $1
     )
     select count(*)::int as ended from ended`,
    [userId, hash],
  );
  return rows[0]?.ended ?? 0;
}

/** As the owner (CLI): a one-time link of that token hash, valid for `validSeconds`. */
export async function insertLoginLink(
  db: Queryable,
  link: { userId: string; tokenHash: Buffer; validSeconds: number },
): Promise<void> {
  await db.query(
    `insert into app_private.login_links (token_hash, user_id, expires_at)
       values ($1, $2, now() + make_interval(secs => $3))`,
    [link.tokenHash, link.userId, link.validSeconds],
  );
}
