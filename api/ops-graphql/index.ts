/**
 * The operator read API: GraphQL at /ops/graphql, built by postgraphile 5 from the `ops`
 * schema's views (sql/migrations: tasks, queue depth, workers, webhook deliveries).
 *
 * Read-only by construction: the API role may only SELECT those views, and the mutation
 * plugins are off. Every request needs an API key (X-API-Key) and counts against the key's
 * default rate limit. Each GraphQL request runs as the API role in a transaction with the
 * key's user and scopes and app.surface = 'ops'; the database's RLS decides the rows (a key
 * sees its user's rows, a key with ops:read every row and the fleet views). docs/operations.md.
 */
import "./promise-with-resolvers.ts";
import express, { type Express } from "express";
import type pg from "pg";
import { postgraphile, type PostGraphileInstance } from "postgraphile";
import { makePgService } from "postgraphile/adaptors/pg";
import { grafserv } from "postgraphile/grafserv/express/v4";
import { PostGraphileAmberPreset } from "postgraphile/presets/amber";
import type { AuthenticatedKey } from "../locals.ts";
import { rateLimit } from "../middleware/rate-limit/index.ts";
import type { ApiServices } from "../services.ts";

export const OPS_GRAPHQL_PATH = "/ops/graphql";
/** the scope that shows an operator every user's rows and the fleet (auth/scopes.ts) */
export const OPERATOR_SCOPE = "ops:read";

/** The settings RLS reads (app_public.current_user_id, current_scopes, is_operator). */
export function opsPgSettings(auth: AuthenticatedKey): Record<string, string> {
  return { "app.user_id": auth.userId, "app.scopes": auth.scopes.join(" "), "app.surface": "ops" };
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

function buildPostgraphile(pool: pg.Pool): PostGraphileInstance {
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
          return opsPgSettings(auth);
        },
      }),
    ],
    grafserv: { graphqlPath: OPS_GRAPHQL_PATH, graphiql: false, watch: false, maxRequestLength: 100_000 },
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
  const limit = rateLimit(services.pool, [{ name: "default", limit: services.env.RATE_LIMIT_PER_MINUTE, windowSeconds: 60 }]);
  let handler: express.Router | undefined;
  router.use(OPS_GRAPHQL_PATH, authenticate, limit);
  router.use((req, res, next) => {
    if (req.path !== OPS_GRAPHQL_PATH) return next();
    if (!handler) {
      handler = express.Router();
      // grafserv's Express adapter only app.use()s its handler; no websockets here
      void buildPostgraphile(services.pool).createServ(grafserv).addTo(handler as unknown as Express, null, false);
    }
    handler(req, res, next);
  });
  return router;
}
