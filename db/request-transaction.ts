/**
 * Every API request's SQL runs in one transaction on the non-superuser pool, opened by
 * app_public.begin_request: it checks the key, sets app.user_id and app.scopes for RLS
 * (transaction-local, so a pooled connection never carries one request's identity into the
 * next) and refuses a key that lacks a required scope.
 */
import type pg from "pg";
import { isConnectionError } from "./connection-errors.ts";

/** What identifies the caller to SQL: the key's prefix and the SHA-256 of the whole key. */
export interface KeyCredential {
  prefix: string;
  hash: Buffer;
}

export type Queryable = Pick<pg.PoolClient, "query">;

export async function withRequestTransaction<T>(
  pool: pg.Pool,
  credential: KeyCredential,
  requiredScopes: readonly string[],
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return inTransaction(
    pool,
    (client) => {
      // BEGIN and the identity in one message: the simple protocol takes several statements at
      // once, so the values are escaped literals (a prefix of [a-z2-7], a hex hash, scope names
      // from the route table). One write and one round trip fewer than BEGIN and a prepared
      // call; measured a few per cent faster than the two pipelined.
      const scopes = requiredScopes.map((scope) => client.escapeLiteral(scope)).join(",");
      return (
        `begin; select app_public.begin_request(${client.escapeLiteral(credential.prefix)}, ` +
        `'\\x${credential.hash.toString("hex")}'::bytea, array[${scopes}]::text[])`
      );
    },
    work,
  );
}

/**
 * For a public route (no key): a read-only transaction without a request identity, in which
 * RLS shows no row; only SQL functions that check a proof of their own (a presigned URL's
 * signature) return anything.
 */
export async function withPublicTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(pool, () => "begin read only", work);
}

/**
 * For a worker acting for a user on its own (owner) connection: RLS does not bind the owner,
 * but the SQL functions that check app.user_id themselves (the blob store's, presigning) see
 * the user, and rows default their user_id to them. The identity ends with the transaction.
 */
export async function withUserTransaction<T>(client: Queryable, userId: string, work: () => Promise<T>): Promise<T> {
  return transact(client, `begin; select set_config('app.user_id', '${uuidLiteral(userId)}', true)`, work);
}

/** A plain transaction on a client the caller holds (seeding, scripts): commit, or roll back and rethrow. */
export async function withTransaction<T>(client: Queryable, work: () => Promise<T>): Promise<T> {
  return transact(client, "begin", work);
}

function uuidLiteral(id: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new Error(`not a UUID: ${id}`);
  return id;
}

/**
 * Opens with `opening`, commits what `work` did, rolls back on any error; a client that cannot
 * roll back is discarded. A pooled connection the server had closed while it sat idle (a
 * restart, pg_terminate_backend) fails the opening statement: nothing began, so the transaction
 * is opened once more on a fresh connection.
 */
async function inTransaction<T>(
  pool: pg.Pool,
  opening: (client: pg.PoolClient) => string,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let broken = false;
    let opened = false;
    try {
      return await transact(
        client,
        opening(client),
        () => {
          opened = true;
          return work(client);
        },
        () => {
          broken = true;
        },
      );
    } catch (error) {
      if (opened || attempt > 1 || !isConnectionError(error)) throw error;
      broken = true;
    } finally {
      client.release(broken);
    }
  }
}

async function transact<T>(
  client: Queryable,
  opening: string,
  work: () => Promise<T>,
  onRollbackFailed = () => {},
): Promise<T> {
  try {
    // inside the try: a refused identity (begin_request raising) leaves a transaction to roll back
    await client.query(opening);
    const result = await work();
    await client.query("commit");
    return result;
  } catch (error) {
    await client.query("rollback").catch(onRollbackFailed);
    throw error;
  }
}
