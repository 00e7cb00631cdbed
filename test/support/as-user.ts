/**
 * Runs database work the way a request does: in app_public.begin_request's transaction on the
 * API role's pool, as the key's user. For seeding through the same query functions the
 * routes use.
 */
import type pg from "pg";
import { parseApiKey } from "../../auth/api-key.ts";
import { SCOPES } from "../../auth/scopes.ts";
import { withRequestTransaction } from "../../db/request-transaction.ts";
import type { TestUser } from "./users.ts";

export function asUser<T>(pool: pg.Pool, user: TestUser, work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
  const credential = parseApiKey(user.key);
  if (!credential) throw new Error("the test user's key is malformed");
  return withRequestTransaction(pool, credential, SCOPES, work);
}
