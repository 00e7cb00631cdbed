/**
 * Idempotency-Key on the POST routes that declare it.
 *
 *   first request        claim (committed at once) -> run -> response stored in the
 *                        handler's own transaction -> sent
 *   repeat, same body    the stored status, headers and body, plus Idempotency-Replayed: true
 *   repeat, other body   422 idempotency_key_reused
 *   repeat while running 409 idempotency_request_in_flight
 *
 * Only successful (2xx) responses are stored: an error releases the claim so the client can
 * retry with the same key. Records live 24 hours per user.
 *
 * A claim locks its key for a lease (IDEMPOTENCY_CLAIM_LEASE_SECONDS, 30 s) that the request
 * renews every third of it while it runs, so a long upload keeps its claim and a process that
 * died (kill -9, a lost machine) frees it within one lease. A duplicate's 409 says in
 * Retry-After when the claim's lease ends.
 */
import { createHash } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type pg from "pg";
import { log } from "../../../config/logger.ts";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  idempotencyRetryAfter,
  releaseIdempotencyKey,
  renewIdempotencyKey,
} from "../../../db/queries/idempotency.ts";
import type { KeyCredential, Queryable } from "../../../db/request-transaction.ts";
import { sendSerialized, type SerializedReply } from "../../reply.ts";
import { HttpError, invalidParameter } from "../../../http/errors/index.ts";

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** response headers that describe this response only, never replayed */
const NOT_STORED = new Set(["x-request-id", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]);

interface Claim {
  key: string;
  token: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      idempotencyClaim?: Claim;
      /** set by a route whose body is not JSON (multipart): what identifies its content */
      bodyFingerprint?: Buffer;
    }
  }
}

/** JSON with sorted keys, so the same parameters in another order are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function requestHash(req: Request, res: Response): Buffer {
  const hash = createHash("sha256");
  hash.update(`${req.method}\n${req.originalUrl}\n`);
  hash.update(res.locals.bodyFingerprint ?? canonicalJson(req.body ?? null));
  return hash.digest();
}

export function idempotency(pool: pg.Pool, leaseSeconds: number): RequestHandler {
  return async (req, res, next) => {
    const key = req.get("idempotency-key");
    if (key === undefined) {
      next();
      return;
    }
    if (!KEY_PATTERN.test(key)) {
      throw invalidParameter([
        { field: "header.Idempotency-Key", code: "invalid_string", message: "1 to 255 visible ASCII characters" },
      ]);
    }
    const auth = res.locals.auth;
    if (!auth) throw new Error("idempotency needs an authenticated key");
    const claim = await claimIdempotencyKey(pool, auth.credential, {
      key,
      method: req.method,
      path: req.path,
      hash: requestHash(req, res),
      lockSeconds: leaseSeconds,
    });
    switch (claim.outcome) {
      case "claimed":
        res.locals.idempotencyClaim = { key, token: claim.claimToken };
        keepRenewing(pool, res, auth.credential, { key, token: claim.claimToken }, leaseSeconds);
        next();
        return;
      case "replay":
        res.setHeader("Idempotency-Replayed", "true");
        sendSerialized(res, { status: claim.status, headers: claim.headers, body: claim.body });
        return;
      case "in_flight": {
        const seconds = (await idempotencyRetryAfter(pool, auth.credential, key)) ?? 1;
        throw new HttpError(
          409,
          "idempotency_request_in_flight",
          `a request with this Idempotency-Key is still running; retry after ${seconds} s`,
          { idempotency_key: key, retry_after_seconds: seconds },
          { "Retry-After": String(seconds) },
        );
      }
      case "mismatch":
        throw new HttpError(422, "idempotency_key_reused", "this Idempotency-Key was used for a different request", {
          idempotency_key: key,
        });
    }
  };
}

/** Renews the claim every third of its lease until the response has ended, however it ends. */
function keepRenewing(
  pool: pg.Pool,
  res: Response,
  credential: KeyCredential,
  claim: Claim,
  leaseSeconds: number,
): void {
  const timer = setInterval(
    () => {
      renewIdempotencyKey(pool, credential, claim.key, claim.token, leaseSeconds).then(
        (renewed) => {
          if (!renewed) clearInterval(timer);
        },
        // a renewal the database missed is tried again at the next tick, within the lease
        (error: unknown) =>
          log.warn({ err: error, requestId: res.locals.requestId }, "an idempotency claim was not renewed"),
      );
    },
    (leaseSeconds * 1000) / 3,
  );
  timer.unref();
  res.on("close", () => clearInterval(timer));
}

/**
 * Inside the handler's transaction: stores a 2xx response against the claim, so the work and
 * its recorded response commit together.
 */
export async function storeIdempotentResponse(db: Queryable, res: Response, reply: SerializedReply): Promise<void> {
  const claim = res.locals.idempotencyClaim;
  const auth = res.locals.auth;
  if (!claim || !auth || reply.status < 200 || reply.status > 299) return;
  const headers = Object.fromEntries(
    Object.entries(reply.headers).filter(([name]) => !NOT_STORED.has(name.toLowerCase())),
  );
  await completeIdempotencyKey(db, auth.credential, claim.key, claim.token, { ...reply, headers });
}

/** After a failed request: frees the key for a retry. */
export async function releaseIdempotencyClaim(pool: pg.Pool, res: Response): Promise<void> {
  const claim = res.locals.idempotencyClaim;
  const auth = res.locals.auth;
  if (!claim || !auth) return;
  res.locals.idempotencyClaim = undefined;
  await releaseIdempotencyKey(pool, auth.credential, claim.key, claim.token);
}
