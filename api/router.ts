/**
 * Builds the public API router from the route table. Each route's chain, in order:
 *
 *   deprecation headers -> authenticate -> scopes -> rate limit -> JSON body -> validate
 *     -> multipart upload -> idempotency claim -> handler in the request transaction (with
 *        the idempotent response stored in that same transaction) -> send
 *
 * A public route skips authentication, scopes and the per-key rate limit, and its handler
 * runs in a read-only transaction without identity.
 */
import express, { type RequestHandler, type Response } from "express";
import { log } from "../config/logger.ts";
import { withPublicTransaction, withRequestTransaction } from "../db/request-transaction.ts";
import { authenticatorFor, requireScopes } from "./middleware/auth/index.ts";
import { assertDeprecationPolicy, deprecationHeaders } from "./middleware/deprecation/index.ts";
import { idempotency, releaseIdempotencyClaim, storeIdempotentResponse } from "./middleware/idempotency/index.ts";
import { jsonBody } from "./middleware/json-body/index.ts";
import { multipartUpload } from "./middleware/multipart/index.ts";
import { publicBaseUrl } from "./public-base-url.ts";
import { rateLimit, type RateBucket } from "./middleware/rate-limit/index.ts";
import { LeaseBook } from "./middleware/rate-limit/leases.ts";
import { validate } from "./middleware/validate/index.ts";
import { sendSerialized, serializeReply, type SerializedReply } from "./reply.ts";
import { expressPath, type HandlerContext, type RouteSpec } from "./route.ts";
import type { ApiServices } from "./services.ts";

async function releaseQuietly(services: ApiServices, res: Response): Promise<void> {
  await releaseIdempotencyClaim(services.pool, res).catch((error: unknown) => {
    log.warn({ err: error, requestId: res.locals.requestId }, "could not release an idempotency claim");
  });
}

function execute(route: RouteSpec, services: ApiServices): RequestHandler {
  return async (req, res) => {
    const auth = res.locals.auth;
    const input = res.locals.input;
    if ((!auth && !route.public) || !input)
      throw new Error(`${route.operationId}: authentication or validation did not run`);
    let prepared: unknown;
    const context = (
      db: HandlerContext<unknown, unknown, unknown, boolean>["db"],
    ): HandlerContext<unknown, unknown, unknown, boolean> => ({
      prepared,
      params: input.params,
      query: input.query,
      body: input.body,
      db,
      auth: auth ?? null,
      file: res.locals.upload ?? null,
      requestId: res.locals.requestId,
      services,
      publicBaseUrl: publicBaseUrl(req, services.env.PUBLIC_BASE_URL),
    });
    let reply: SerializedReply;
    try {
      if (route.prepare) {
        prepared = await route.prepare({
          params: input.params,
          query: input.query,
          body: input.body,
          auth: auth ?? null,
          file: res.locals.upload ?? null,
          requestId: res.locals.requestId,
          services,
          read: (work) =>
            auth
              ? withRequestTransaction(services.pool, auth.credential, route.scopes, work)
              : withPublicTransaction(services.pool, work),
        });
      }
      if (route.public || !auth) {
        reply = serializeReply(await withPublicTransaction(services.pool, (db) => route.handler(context(db))));
      } else {
        reply = await withRequestTransaction(services.pool, auth.credential, route.scopes, async (db) => {
          const serialized = serializeReply(await route.handler(context(db)));
          await storeIdempotentResponse(db, res, serialized);
          return serialized;
        });
      }
    } catch (error) {
      await releaseQuietly(services, res);
      throw error;
    }
    if (reply.status < 200 || reply.status > 299) await releaseQuietly(services, res);
    sendSerialized(res, reply);
  };
}

/** `authenticate`: the app's key check, shared with its other routers (one cache, one throttle) */
export function buildApiRouter(
  routes: readonly RouteSpec[],
  services: ApiServices,
  authenticate: RequestHandler = authenticatorFor(services.pool, services.env).cached,
): express.Router {
  const router = express.Router();
  const defaultBucket: RateBucket = { name: "default", limit: services.env.RATE_LIMIT_PER_MINUTE, windowSeconds: 60 };
  const bodies = {
    default: jsonBody(services.env.JSON_BODY_LIMIT_BYTES),
    library: jsonBody(services.env.LIBRARY_BODY_LIMIT_BYTES),
  };
  const leases = new LeaseBook(); // shared by the routes: one lease per key and bucket set

  for (const route of routes) {
    const chain: RequestHandler[] = [
      (req, res, next) => {
        res.locals.route = `${req.baseUrl}${route.path}`;
        next();
      },
    ];
    if (route.deprecated) {
      assertDeprecationPolicy(`${route.method.toUpperCase()} ${route.path}`, route.deprecated);
      chain.push(deprecationHeaders(route.deprecated));
    }
    if (route.public) {
      if (route.scopes.length > 0 || route.idempotent || route.rateLimit) {
        throw new Error(`${route.operationId}: a public route has no scopes, Idempotency-Key or per-key rate limit`);
      }
    } else {
      const buckets = [defaultBucket];
      if (route.rateLimit) {
        buckets.push({
          name: route.rateLimit.bucket,
          limit: route.rateLimit.limit(services),
          windowSeconds: route.rateLimit.windowSeconds,
        });
      }
      chain.push(authenticate, requireScopes(route.scopes), rateLimit(services.pool, buckets, leases));
    }
    if (route.body && route.upload)
      throw new Error(`${route.operationId}: a route takes a JSON body or an upload, not both`);
    if (route.body) chain.push(bodies[route.bodyLimit ?? "default"]);
    chain.push(validate(route));
    // after validation, so a bad path or query is refused before an upload is read
    if (route.upload)
      chain.push(multipartUpload({ field: route.upload.field, limitBytes: services.env.UPLOAD_LIMIT_BYTES }));
    if (route.idempotent) chain.push(idempotency(services.pool, services.env.IDEMPOTENCY_CLAIM_LEASE_SECONDS));
    chain.push(execute(route, services));
    router[route.method](expressPath(route.path), ...chain);
  }
  return router;
}
