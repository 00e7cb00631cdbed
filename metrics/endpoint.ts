/**
 * GET /metrics in Prometheus' text format. With METRICS_TOKEN set, a scrape must send
 * `Authorization: Bearer <token>` (401 otherwise); without it the endpoint is open, like
 * /healthz, for a scraper on the same network.
 */
import { timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";
import type { Registry } from "prom-client";
import { HttpError } from "../http/errors/http-error.ts";

export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith("Bearer ") ? header.slice(7) : "");
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

export function metricsHandler(registry: Registry, token: string | undefined): RequestHandler {
  return async (req, res) => {
    if (token && !bearerMatches(req.get("authorization"), token)) {
      throw new HttpError(
        401,
        "metrics_token_invalid",
        "send the metrics token as Authorization: Bearer <METRICS_TOKEN>",
        {},
        { "WWW-Authenticate": "Bearer" },
      );
    }
    res.setHeader("Content-Type", registry.contentType);
    res.send(await registry.metrics());
  };
}
