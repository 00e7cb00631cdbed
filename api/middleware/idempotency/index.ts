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
 * retry with the same key. Records live 24 hours per user; a claim whose process died is
 * free again after CLAIM_LOCK_SECONDS.
 */
import { createHash } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type pg from "pg";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
} from "../../../db/queries/idempotency.ts";
import type { Queryable } from "../../../db/request-transaction.ts";
import { sendSerialized, type SerializedReply } from "../../reply.ts";
import { HttpError, invalidParameter } from "../errors/index.ts";

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const CLAIM_LOCK_SECONDS = 300;
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

export function idempotency(pool: pg.Pool): RequestHandler {
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
      lockSeconds: CLAIM_LOCK_SECONDS,
    });
    switch (claim.outcome) {
      case "claimed":
        res.locals.idempotencyClaim = { key, token: claim.claimToken };
        next();
        return;
      case "replay":
        res.setHeader("Idempotency-Replayed", "true");
        sendSerialized(res, { status: claim.status, headers: claim.headers, body: claim.body });
        return;
      case "in_flight":
        throw new HttpError(409, "idempotency_request_in_flight", "a request with this Idempotency-Key is still running; retry later", {
          idempotency_key: key,
        });
      case "mismatch":
        throw new HttpError(422, "idempotency_key_reused", "this Idempotency-Key was used for a different request", {
          idempotency_key: key,
        });
    }
  };
}

/**
 * Inside the handler's transaction: stores a 2xx response against the claim, so the work and
 * its recorded response commit together.
 */
export async function storeIdempotentResponse(db: Queryable, res: Response, reply: SerializedReply): Promise<void> {
  const claim = res.locals.idempotencyClaim;
  const auth = res.locals.auth;
  if (!claim || !auth || reply.status < 200 || reply.status > 299) return;
  const headers = Object.fromEntries(Object.entries(reply.headers).filter(([name]) => !NOT_STORED.has(name.toLowerCase())));
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
