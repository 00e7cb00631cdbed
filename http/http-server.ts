/**
 * The HTTP server the API and a worker's health port listen with: Node's server with the
 * connection timeouts of the environment (HTTP_*_TIMEOUT_SECONDS, README). Node's own defaults
 * (5 s keep-alive) are below the idle timeout of the load balancers in front of it (60 s for
 * AWS ALB): the server closed connections the balancer still held idle, and the balancer's next
 * request on one was answered 502. The balancer must be the one to close. Requests its parser
 * refuses are answered in the error envelope (client-error.ts).
 */
import http from "node:http";
import type { Env } from "../config/env.ts";
import { answerClientError } from "./client-error.ts";

export type HttpTimeoutSettings = Pick<
  Env,
  "HTTP_KEEP_ALIVE_TIMEOUT_SECONDS" | "HTTP_HEADERS_TIMEOUT_SECONDS" | "HTTP_REQUEST_TIMEOUT_SECONDS"
>;

export function createHttpServer(listener: http.RequestListener, settings: HttpTimeoutSettings): http.Server {
  const server = http.createServer(
    {
      keepAliveTimeout: settings.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
      headersTimeout: settings.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeout: settings.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
    },
    listener,
  );
  server.on("clientError", answerClientError);
  return server;
}
