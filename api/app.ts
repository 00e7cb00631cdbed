/**
 * The HTTP application: request ids, the health check, Prometheus metrics (METRICS_TOKEN) and
 * the OpenAPI document (no key), the public API under /backend-api/api/public/v1 (an API key or
 * the web app's session cookie), the web app's own routes under /backend-api/api/app (sign-in,
 * keys), the operator read API at /ops/graphql, the web app's pages and files (web/dist) at /
 * and below, and error envelopes for everything else.
 */
import path from "node:path";
import express from "express";
import type { Registry } from "prom-client";
import { repoRoot } from "../config/env.ts";
import { log } from "../config/logger.ts";
import { metricsHandler } from "../metrics/endpoint.ts";
import { httpMetrics } from "../metrics/http.ts";
import { createMetricsRegistry } from "../metrics/registry.ts";
import { sendHealth, type CheckState } from "../http/health.ts";
import { authenticatorFor } from "./middleware/auth/index.ts";
import { errorHandler } from "../http/errors/index.ts";
import { requestId } from "../http/request-id/index.ts";
import { notFoundHandler } from "./not-found.ts";
import { opsGraphqlRouter } from "./ops-graphql/index.ts";
import { API_BASE_PATH, APP_ROUTES_PATH } from "../http/base-path.ts";
import { appRouter } from "./app-routes/index.ts";
import { buildOpenApiDocument } from "./openapi/document.ts";
import type { RouteSpec } from "./route.ts";
import { buildApiRouter } from "./router.ts";
import { routes as defaultRoutes } from "./routes/index.ts";
import type { ApiServices } from "./services.ts";
import { webAppRouter } from "./web-app.ts";

export interface AppOptions {
  services: ApiServices;
  /** reports whether migrations ran and workers run; the database is checked here */
  health: () => Record<string, CheckState>;
  routes?: readonly RouteSpec[];
  /** the process's metrics, served at /metrics with request latency added; default: the app's own */
  metrics?: Registry;
  /** the built web app; default web/dist */
  webDist?: string;
}

/** TRUST_PROXY as Express takes it: a boolean, a hop count, or a list of addresses */
export function trustProxySetting(value: string): boolean | number | string {
  if (value === "true" || value === "false") return value === "true";
  return /^\d+$/.test(value) ? Number(value) : value;
}

export function createApp(options: AppOptions): express.Express {
  const routes = options.routes ?? defaultRoutes;
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", trustProxySetting(options.services.env.TRUST_PROXY));
  const metrics = options.metrics ?? createMetricsRegistry("api");
  app.use(requestId);
  app.use(httpMetrics(metrics));
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      log.debug(
        {
          requestId: res.locals.requestId,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          key: res.locals.auth?.credential.prefix,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        "request",
      );
    });
    next();
  });

  app.get("/healthz", async (_req, res) => {
    const checks: Record<string, CheckState> = { ...options.health() };
    try {
      await options.services.pool.query("select 1");
      checks.database = "ok";
    } catch {
      checks.database = "failing";
    }
    sendHealth(res, checks);
  });

  app.get("/metrics", metricsHandler(metrics, options.services.env.METRICS_TOKEN));

  const document = buildOpenApiDocument(routes);
  app.get(`${API_BASE_PATH}/openapi.json`, (_req, res) => {
    res.json(document);
  });

  // one key check for both surfaces: an address blocked for guessing keys is blocked on both.
  // The GraphQL surface reads the key row on every request (no begin_request runs there)
  const authenticate = authenticatorFor(options.services.pool, options.services.env);
  app.use(API_BASE_PATH, buildApiRouter(routes, options.services, authenticate.cached));
  app.use(APP_ROUTES_PATH, appRouter(options.services, authenticate.forget));
  app.use(opsGraphqlRouter(options.services, authenticate.fresh));
  app.use(
    webAppRouter({
      distDir: options.webDist ?? path.join(repoRoot, "web", "dist"),
      publicBaseUrl: options.services.env.PUBLIC_BASE_URL,
    }),
  );
  app.use(notFoundHandler(routes));
  app.use(errorHandler);
  return app;
}
