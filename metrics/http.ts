/**
 * Request latency per route: `swarf_http_request_duration_seconds{method,route,status}`.
 * The route label is the route's template (/projects/{project_id}, as in the OpenAPI
 * document), never the path a client sent, so the number of series stays bounded: paths that
 * match no route count as "unmatched".
 */
import type { RequestHandler } from "express";
import { Histogram, type Registry } from "prom-client";

/** answered outside the route table */
const FIXED_PATHS = new Set(["/healthz", "/metrics", "/ops/graphql"]);

/** `route`: the template the router matched (res.locals.route), if any */
export function routeLabel(route: string | undefined, path: string): string {
  if (route !== undefined) return route;
  return FIXED_PATHS.has(path) ? path : "unmatched";
}

export function httpMetrics(registry: Registry): RequestHandler {
  const latency = new Histogram({
    name: "swarf_http_request_duration_seconds",
    help: "Time from a request's arrival to its response's last byte, per route template",
    labelNames: ["method", "route", "status"] as const,
    // uploads and plan downloads take seconds; reads milliseconds
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return (req, res, next) => {
    const stop = latency.startTimer();
    const path = req.path;
    res.on("finish", () => {
      stop({ method: req.method, route: routeLabel(res.locals.route, path), status: String(res.statusCode) });
    });
    next();
  };
}
