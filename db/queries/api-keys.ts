/** API keys. Creation, listing and revocation run as the owner (CLI); authentication as the API role. */
import type { Queryable } from "../request-transaction.ts";

export interface ApiKeyListing {
  name: string;
  key_prefix: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export async function insertApiKey(
  db: Queryable,
  key: { userId: string; name: string; prefix: string; hash: Buffer; scopes: readonly string[] },
): Promise<void> {
  await db.query(
    `insert into app_private.api_keys (user_id, name, key_prefix, key_hash, scopes)
     values ($1, $2, $3, $4, $5)`,
    [key.userId, key.name, key.prefix, key.hash, key.scopes],
  );
}

export async function listApiKeys(db: Queryable, userId: string): Promise<ApiKeyListing[]> {
  const { rows } = await db.query<ApiKeyListing>(
    `select name, key_prefix, scopes, created_at, last_used_at, revoked_at
       from app_private.api_keys where user_id = $1 order by created_at, key_prefix`,
    [userId],
  );
  return rows;
}

/** Returns false when no live key has that prefix. */
export async function revokeApiKey(db: Queryable, prefix: string): Promise<boolean> {
  const { rowCount } = await db.query(
    "update app_private.api_keys set revoked_at = now() where key_prefix = $1 and revoked_at is null",
    [prefix],
  );
  return rowCount === 1;
}

export interface AuthenticatedKey {
  key_id: string;
  user_id: string;
  scopes: string[];
}

export async function authenticateKey(db: Queryable, prefix: string, hash: Buffer): Promise<AuthenticatedKey | null> {
  const { rows } = await db.query<AuthenticatedKey>(
    "select key_id, user_id, scopes from app_public.authenticate_key($1, $2)",
    [prefix, hash],
  );
  return rows[0] ?? null;
}

/** A key as its owner sees it in the web app (no hash, no plaintext). */
export interface OwnApiKey {
  id: string;
  name: string;
  key_prefix: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
}

/** The request user's unrevoked keys, newest first (in a request transaction). */
export async function ownApiKeys(db: Queryable): Promise<OwnApiKey[]> {
  const { rows } = await db.query<OwnApiKey>(
    "select id, name, key_prefix, scopes, created_at, last_used_at from app_public.own_api_keys()",
  );
  return rows;
}

export async function createOwnApiKey(
  db: Queryable,
  key: { name: string; prefix: string; hash: Buffer; scopes: readonly string[] },
): Promise<OwnApiKey> {
  const { rows } = await db.query<OwnApiKey>(
    `select id, name, key_prefix, scopes, created_at, last_used_at
       from app_public.create_own_api_key($1, $2, $3, $4)`,
    [key.name, key.prefix, key.hash, key.scopes],
  );
  return rows[0]!;
}

/** The revoked key's hash; null when the request user has no live key of that id. */
export async function revokeOwnApiKey(db: Queryable, keyId: string): Promise<Buffer | null> {
  const { rows } = await db.query<{ key_hash: Buffer }>("select key_hash from app_public.revoke_own_api_key($1)", [
    keyId,
  ]);
  return rows[0]?.key_hash ?? null;
}
