/**
 * The operator read API: GraphQL at /ops/graphql, built by postgraphile 5 from the `ops`
 * schema's views (sql/migrations: tasks, queue depth, workers, webhook deliveries).
 *
 * Read-only by construction: the API role may only SELECT those views, and the mutation
 * plugins are off. Every request needs an API key (X-API-Key), whose row is read on every
 * request, and counts against the key's default rate limit. Each GraphQL request runs as the
 * API role in a transaction with the key's user and scopes and app.surface = 'ops'; the
 * database's RLS decides the rows (a key sees its user's rows, a key with ops:read every row
 * and the fleet views). What one request may ask is bounded before it runs (query-limits.ts),
 * each of its statements by OPS_GRAPHQL_STATEMENT_TIMEOUT_MS, and how many run at once by
 * OPS_GRAPHQL_CONCURRENCY (concurrency.ts). docs/operations.md.
 */
import "./promise-with-resolvers.ts";
import express, { type Express } from "express";
import type pg from "pg";
import { postgraphile, type PostGraphileInstance } from "postgraphile";
import { makePgService } from "postgraphile/adaptors/pg";
import { grafserv } from "postgraphile/grafserv/express/v4";
import { PostGraphileAmberPreset } from "postgraphile/presets/amber";
import type { AuthenticatedKey } from "../locals.ts";
import { HttpError } from "../../http/errors/index.ts";
import { jsonBody } from "../middleware/json-body/index.ts";
import { rateLimit } from "../middleware/rate-limit/index.ts";
import type { ApiServices } from "../services.ts";
import { concurrencyGate } from "./concurrency.ts";
import { limitGraphqlRequest, type GraphqlRequestBody } from "./query-limits.ts";

export const OPS_GRAPHQL_PATH = "/ops/graphql";
/** the scope that shows an operator every user's rows and the fleet (auth/scopes.ts) */
export const OPERATOR_SCOPE = "ops:read";

/** the largest document accepted, as grafserv's own cap */
const MAX_DOCUMENT_BYTES = 100_000;
/** how long a request waits for one of the OPS_GRAPHQL_CONCURRENCY slots before 503 */
const MAX_WAIT_MS = 10_000;

/**
 * The settings RLS reads (app_public.current_user_id, current_scopes, is_operator), and the
 * bound on each statement of the request's transaction.
 */
export function opsPgSettings(auth: AuthenticatedKey, statementTimeoutMs: number): Record<string, string> {
  return {
    "app.user_id": auth.userId,
    "app.scopes": auth.scopes.join(" "),
    "app.surface": "ops",
    statement_timeout: String(statementTimeoutMs),
  };
}

/** postgraphile renames a column `id` to `rowId`, keeping `id` for Relay's global ids, which are off here */
const OwnIdsPlugin: GraphileConfig.Plugin = {
  name: "SwarfOwnIdsPlugin",
  version: "1.0.0",
  inflection: {
    replace: {
      _attributeName(previous, _preset, details) {
        return previous!({ ...details, skipRowId: true });
      },
    },
  },
};

function buildPostgraphile(pool: pg.Pool, statementTimeoutMs: number): PostGraphileInstance {
  return postgraphile({
    extends: [PostGraphileAmberPreset],
    plugins: [OwnIdsPlugin],
    // reads only: nothing to create, update or delete even if a grant slipped in; and no Relay
    // global ids, so a row's id is its own (the public API's ids)
    disablePlugins: ["PgMutationCreatePlugin", "PgMutationUpdateDeletePlugin", "NodePlugin"],
    pgServices: [
      makePgService({
        pool,
        schemas: ["ops"],
        pgSettings(requestContext) {
          const auth = requestContext.expressv4?.res.locals.auth;
          // the router authenticates before grafserv sees the request
          if (!auth) throw new Error("the ops GraphQL endpoint was reached without an authenticated key");
          return opsPgSettings(auth, statementTimeoutMs);
        },
      }),
    ],
    grafserv: { graphqlPath: OPS_GRAPHQL_PATH, graphiql: false, watch: false, maxRequestLength: MAX_DOCUMENT_BYTES },
    grafast: { explain: false },
  });
}

/**
 * The router serving /ops/graphql. The schema is introspected on the first request, not
 * when the app is made: an app that is never asked (most tests) never builds it.
 */
/** `authenticate`: the app's key check that reads the key row on every request (a revoked key fails at once) */
export function opsGraphqlRouter(services: ApiServices, authenticate: express.RequestHandler): express.Router {
  const router = express.Router();
  const limit = rateLimit(services.pool, [
    { name: "default", limit: services.env.RATE_LIMIT_PER_MINUTE, windowSeconds: 60 },
  ]);
  let served: { handler: express.Router; instance: PostGraphileInstance } | undefined;
  const serve = () => {
    if (!served) {
      const instance = buildPostgraphile(services.pool, services.env.OPS_GRAPHQL_STATEMENT_TIMEOUT_MS);
      const handler = express.Router();
      // grafserv's Express adapter only app.use()s its handler; no websockets here
      void instance.createServ(grafserv).addTo(handler as unknown as Express, null, false);
      served = { handler, instance };
    }
    return served;
  };
  router.use(OPS_GRAPHQL_PATH, authenticate, limit);
  router.post(
    OPS_GRAPHQL_PATH,
    jsonBody(MAX_DOCUMENT_BYTES),
    async (req, _res, next) => {
      const body = graphqlRequestBody(req.body);
      const limited = limitGraphqlRequest(await serve().instance.getSchema(), body);
      if (limited.outcome === "exceeded") {
        const { limit: name, maximum, found, message } = limited.exceeded;
        throw new HttpError(400, "query_limit_exceeded", message, { limit: name, maximum, found });
      }
      if (limited.outcome === "within") req.body = limited.body;
      next();
    },
    concurrencyGate({ slots: services.env.OPS_GRAPHQL_CONCURRENCY, maxWaitMs: MAX_WAIT_MS }),
  );
  router.use((req, res, next) => {
    if (req.path !== OPS_GRAPHQL_PATH) return next();
    // only a POST has been judged above: nothing else reaches postgraphile
    if (req.method !== "POST") {
      throw new HttpError(405, "method_not_allowed", "POST the GraphQL request as JSON", {}, { Allow: "POST" });
    }
    serve().handler(req, res, next);
  });
  return router;
}

/** the body of a GraphQL-over-HTTP POST: a query, optional variables and operation name */
function graphqlRequestBody(body: unknown): GraphqlRequestBody {
  const refuse = (message: string) => new HttpError(400, "invalid_graphql_request", message);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw refuse("send a JSON object with the GraphQL document in `query` (batches are not served)");
  }
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== "string" || query.trim() === "") throw refuse("`query` must be a GraphQL document");
  if (variables !== undefined && variables !== null && (typeof variables !== "object" || Array.isArray(variables))) {
    throw refuse("`variables` must be an object");
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") {
    throw refuse("`operationName` must be a string");
  }
  return body as GraphqlRequestBody;
}
