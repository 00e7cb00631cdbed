/**
 * A worker process's own HTTP port (WORKER_HTTP_PORT): GET /healthz, 200 when the worker runs
 * (its database answers, its lease is fresh, its geometry threads are up) and 503 naming the
 * check that is not; GET /metrics for Prometheus. Nothing else: the API is elsewhere.
 */
import type { AddressInfo } from "node:net";
import express from "express";
import type { Registry } from "prom-client";
import { sendHealth, type CheckState } from "../http/health.ts";
import { createHttpServer, type HttpTimeoutSettings } from "../http/http-server.ts";
import { errorHandler, HttpError } from "../http/errors/index.ts";
import { requestId } from "../http/request-id/index.ts";
import { metricsHandler } from "../metrics/endpoint.ts";

export interface WorkerHealthOptions {
  host: string;
  port: number;
  metrics: Registry;
  metricsToken: string | undefined;
  /** the connection timeouts, as the API's (HTTP_*_TIMEOUT_SECONDS) */
  timeouts: HttpTimeoutSettings;
  /** the process's own checks besides the database */
  checks(): Record<string, CheckState>;
  /** resolves when the database answers */
  ping(): Promise<void>;
}

export interface WorkerHealthServer {
  port: number;
  close(): Promise<void>;
}

const PING_TIMEOUT_MS = 2000;

export async function startWorkerHealthServer(options: WorkerHealthOptions): Promise<WorkerHealthServer> {
  const app = express();
  app.disable("x-powered-by");
  app.use(requestId);
  app.get("/healthz", async (_req, res) => {
    const checks: Record<string, CheckState> = { ...options.checks() };
    const timeout = new Promise<never>((_resolve, reject) =>
      setTimeout(() => reject(new Error("timeout")), PING_TIMEOUT_MS).unref(),
    );
    checks.database = await Promise.race([options.ping(), timeout]).then(
      () => "ok" as const,
      () => "failing" as const,
    );
    sendHealth(res, checks);
  });
  app.get("/metrics", metricsHandler(options.metrics, options.metricsToken));
  app.use((req) => {
    throw new HttpError(
      404,
      "route_not_found",
      `a worker serves GET /healthz and GET /metrics, not ${req.method} ${req.path}`,
      {
        method: req.method,
        path: req.path,
      },
    );
  });
  app.use(errorHandler);
  const server = createHttpServer(app, options.timeouts);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
