/**
 * The web app's own JSON routes, mounted at APP_ROUTES_PATH beside the public API and kept out
 * of its OpenAPI document: signing in and out (session.ts), the user's API keys (keys.ts) and the
 * Projects page's list with each project's status and thumbnail (projects.ts), a project's part
 * and stock offsets for planning it again (project-part.ts), and the project viewer's scene and
 * toolpaths (viewer.ts), simulated stock (viewer-stock.ts) and recognised features
 * (viewer-features.ts).
 * Everything else the app does goes through the public API with the session cookie.
 *
 * Every route but the two sign-ins needs the session cookie; those that change something need
 * its CSRF token too (api/middleware/auth/session.ts), and count against the user's rate limit.
 * Answers are never cached.
 */
import express, { type RequestHandler } from "express";
import { preparePasswordChecks } from "../../auth/password.ts";
import { jsonBody } from "../middleware/json-body/index.ts";
import { rateLimit } from "../middleware/rate-limit/index.ts";
import { authenticateSessionCookie, notSignedIn, sessionCookie } from "../middleware/auth/session.ts";
import { validate } from "../middleware/validate/index.ts";
import type { ApiServices } from "../services.ts";
import { jsonOnly, sameOriginOnly } from "./browser.ts";
import { createKey, CreateKeyBody, KeyParams, listKeys, listScopes, revokeKey } from "./keys.ts";
import { ProjectPartParams, projectPart } from "./project-part.ts";
import { listProjectsWithStatus, ProjectsQuery } from "./projects.ts";
import { currentSession, LinkBody, SignInBody, signIn, signInWithLink, signOut } from "./session.ts";
import { projectViewer, setupToolpaths, ToolpathsParams, ViewerParams } from "./viewer.ts";
import { ViewerFeaturesParams, viewerFeatures } from "./viewer-features.ts";
import { ViewerStockParams, ViewerStockQuery, viewerStock } from "./viewer-stock.ts";

export function appRouter(services: ApiServices, forgetKey: (keyHash: Buffer) => void): express.Router {
  const router = express.Router();
  const body = jsonBody(services.env.JSON_BODY_LIMIT_BYTES);
  const sameOrigin = sameOriginOnly(services.env.PUBLIC_BASE_URL);

  // the first unknown email would otherwise pay for the dummy hash too, and take twice as long
  preparePasswordChecks();
  const authenticate: RequestHandler = async (req, res, next) => {
    const cookie = sessionCookie(req);
    if (cookie === undefined) throw notSignedIn();
    res.locals.auth = await authenticateSessionCookie(services.pool, req, cookie);
    next();
  };
  // a session's requests here count against its user's default bucket, as on the public API
  const limit = rateLimit(services.pool, [
    { name: "default", limit: services.env.RATE_LIMIT_PER_MINUTE, windowSeconds: 60 },
  ]);
  const session = [authenticate, limit];
  const auth = (res: express.Response) => {
    if (!res.locals.auth) throw new Error("the session middleware did not run");
    return res.locals.auth;
  };

  router.use((_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  });

  router.post("/session", sameOrigin, jsonOnly, body, validate({ body: SignInBody }), (req, res) =>
    signIn(req, res, services),
  );
  router.post("/session/link", sameOrigin, jsonOnly, body, validate({ body: LinkBody }), (req, res) =>
    signInWithLink(req, res, services),
  );
  router.get("/session", ...session, (_req, res) => currentSession(res, auth(res)));
  router.delete("/session", ...session, (req, res) => signOut(req, res, services, auth(res)));

  router.get("/keys", ...session, (_req, res) => listKeys(res, services, auth(res)));
  router.post("/keys", ...session, body, validate({ body: CreateKeyBody }), (_req, res) =>
    createKey(res, services, auth(res)),
  );
  router.delete("/keys/:key_id", ...session, validate({ params: KeyParams }), (_req, res) =>
    revokeKey(res, services, auth(res), forgetKey),
  );
  router.get("/scopes", ...session, (_req, res) => listScopes(res));

  router.get("/projects", ...session, validate({ query: ProjectsQuery }), (req, res) =>
    listProjectsWithStatus(req, res, services, auth(res)),
  );
  router.get("/projects/:project_id/part", ...session, validate({ params: ProjectPartParams }), (req, res) =>
    projectPart(req, res, services, auth(res)),
  );

  // the project viewer (viewer.ts): its scene, and a setup's toolpaths in binary
  router.get("/projects/:project_id/viewer", ...session, validate({ params: ViewerParams }), (req, res) =>
    projectViewer(req, res, services, auth(res)),
  );
  router.get(
    "/projects/:project_id/setups/:setup_index/toolpaths",
    ...session,
    validate({ params: ToolpathsParams }),
    (req, res) => setupToolpaths(req, res, services, auth(res)),
  );

  // the viewer's simulated stock and recognised features (viewer-stock.ts, viewer-features.ts)
  router.get(
    "/projects/:project_id/setups/:setup_index/stock",
    ...session,
    validate({ params: ViewerStockParams, query: ViewerStockQuery }),
    (req, res) => viewerStock(req, res, services, auth(res)),
  );
  router.get("/projects/:project_id/features", ...session, validate({ params: ViewerFeaturesParams }), (req, res) =>
    viewerFeatures(req, res, services, auth(res)),
  );
  return router;
}
