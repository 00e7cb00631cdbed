/**
 * X-API-Key authentication and the scope fast path.
 *
 * The public API caches successful lookups in the process for AUTH_CACHE_TTL_SECONDS (60 s by
 * default), which bounds revocation delay for the checks made here only: the authoritative
 * check is app_public.begin_request, which every request transaction runs, so a revoked key is
 * refused at once by any route that touches the database. The operator's GraphQL runs no
 * begin_request (postgraphile opens its own transactions), so it authenticates with `fresh`:
 * the key row is read on every request.
 *
 * Key guessing is throttled per client address, and only failures count: a well-formed key is
 * looked up before the throttle is consulted, so a valid key passes from an address that others
 * behind the same proxy or NAT have blocked with bad keys.
 *
 * The public API also takes the web app's session cookie (session.ts) from a request without
 * an X-API-Key header; a request with both is the key's. The GraphQL surface takes keys only.
 */
import type { RequestHandler } from "express";
import type pg from "pg";
import { parseApiKey } from "../../../auth/api-key.ts";
import type { Env } from "../../../config/env.ts";
import { authenticateKey } from "../../../db/queries/api-keys.ts";
import type { AuthenticatedKey } from "../../locals.ts";
import { HttpError } from "../../../http/errors/index.ts";
import { FailedAttempts, type FailedAttemptLimit } from "./failed-attempts.ts";
import { authenticateSessionCookie, sessionCookie } from "./session.ts";

interface CacheEntry {
  key: AuthenticatedKey;
  expiresAt: number;
}

export interface AuthOptions {
  pool: pg.Pool;
  cacheTtlSeconds: number;
  /** bound on cached keys; the oldest entry goes first */
  maxCacheEntries?: number;
  now?: () => number;
  /** key guessing throttled per client address (failed-attempts.ts); off when absent */
  failedAttempts?: FailedAttemptLimit;
}

/** The two ways a request is authenticated; one cache and one failure count behind both. */
export interface Authenticator {
  /**
   * the public API's: a key seen to succeed within the cache's TTL is not looked up again; the
   * session cookie is taken too (read on every request)
   */
  cached: RequestHandler;
  /** every request reads the key row: for surfaces whose queries do not run begin_request */
  fresh: RequestHandler;
  /** drops a revoked key (its SHA-256) from this process's cache: refused here at once */
  forget(keyHash: Buffer): void;
}

/** The authenticator of the API's routers, as the environment configures it. */
export function authenticatorFor(pool: pg.Pool, env: Env): Authenticator {
  return createAuthenticator({
    pool,
    cacheTtlSeconds: env.AUTH_CACHE_TTL_SECONDS,
    failedAttempts: { limit: env.AUTH_FAILURES_PER_ADDRESS, windowSeconds: env.AUTH_FAILURE_WINDOW_SECONDS },
  });
}

export function createAuthenticator(options: AuthOptions): Authenticator {
  const cache = new Map<string, CacheEntry>();
  const maxEntries = options.maxCacheEntries ?? 10_000;
  const now = options.now ?? Date.now;

  const failures = options.failedAttempts ? new FailedAttempts(options.pool, options.failedAttempts, now) : undefined;

  /** a failed attempt: 429 while the address is blocked, else counted and answered 401 */
  async function refuse(address: string | undefined, refusal: HttpError): Promise<never> {
    if (address && failures) {
      failures.check(address);
      await failures.record(address);
    }
    throw refusal;
  }

  function remember(cacheKey: string, key: AuthenticatedKey): void {
    cache.delete(cacheKey);
    cache.set(cacheKey, { key, expiresAt: now() + options.cacheTtlSeconds * 1000 });
    if (cache.size > maxEntries) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
  }

  function handler(useCache: boolean, acceptSession: boolean): RequestHandler {
    return async (req, res, next) => {
      const header = req.get("x-api-key");
      const cookie = acceptSession && (header === undefined || header === "") ? sessionCookie(req) : undefined;
      if (cookie !== undefined) {
        res.locals.auth = await authenticateSessionCookie(options.pool, req, cookie);
        next();
        return;
      }
      if (header === undefined || header === "") {
        throw new HttpError(401, "api_key_missing", "send your API key in the X-API-Key header");
      }
      const address = req.ip ?? req.socket.remoteAddress;
      const credential = parseApiKey(header.trim());
      if (!credential) {
        return refuse(
          address,
          new HttpError(
            401,
            "api_key_malformed",
            "the X-API-Key header is not a key of the form <prefix>_live_<40 characters>",
          ),
        );
      }
      const cacheKey = credential.hash.toString("hex");
      const cached = useCache ? cache.get(cacheKey) : undefined;
      if (cached && cached.expiresAt > now()) {
        res.locals.auth = cached.key;
        next();
        return;
      }
      const row = await authenticateKey(options.pool, credential.prefix, credential.hash);
      if (!row) {
        cache.delete(cacheKey);
        return refuse(address, new HttpError(401, "api_key_invalid", "the API key is unknown or has been revoked"));
      }
      const key: AuthenticatedKey = { credential, keyId: row.key_id, userId: row.user_id, scopes: row.scopes };
      remember(cacheKey, key);
      res.locals.auth = key;
      next();
    };
  }

  return {
    cached: handler(true, true),
    fresh: handler(false, false),
    forget: (keyHash) => cache.delete(keyHash.toString("hex")),
  };
}

/** 403 before any work when the key obviously lacks a scope; SQL checks again. */
export function requireScopes(scopes: readonly string[]): RequestHandler {
  return (_req, res, next) => {
    const held = res.locals.auth?.scopes ?? [];
    const missing = scopes.filter((scope) => !held.includes(scope));
    if (missing.length > 0) {
      throw new HttpError(403, "insufficient_scope", `the API key lacks the scope ${missing.join(", ")}`, {
        missing_scopes: missing,
      });
    }
    next();
  };
}
