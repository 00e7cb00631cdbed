/**
 * The real API on a loopback port, over a test database, and a small client for it.
 */
import type { AddressInfo } from "node:net";
import type pg from "pg";
import { createApp } from "../../api/app.ts";
import { createHttpServer } from "../../http/http-server.ts";
import type { CheckState } from "../../http/health.ts";
import { API_BASE_PATH } from "../../http/base-path.ts";
import type { RouteSpec } from "../../api/route.ts";
import { readEnv, type Env } from "../../config/env.ts";
import { createPool } from "../../db/pools.ts";
import type { GeometryPool } from "../../geometry-pool/pool.ts";
import type { TestDatabase } from "./database.ts";

/** paths the client sends as they are; any other path is below the public API's base path (an absolute URL is fetched as it is) */
const OUTSIDE_THE_PUBLIC_API = ["/healthz", "/metrics", "/backend-api", "/ops/"];

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  /** the body as received (after fetch undid any Content-Encoding) */
  bytes: Buffer;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  /** sent as is, with this content type */
  raw?: { body: string | Buffer; contentType: string };
  headers?: Record<string, string>;
}

export interface TestApi {
  origin: string;
  pool: pg.Pool;
  env: Env;
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export async function startTestApi(
  db: TestDatabase,
  options: {
    env?: Partial<Record<keyof Env, string>>;
    routes?: readonly RouteSpec[];
    health?: () => Record<string, CheckState>;
    /** for routes that take uploads; the test owns (and closes) it */
    geometry?: GeometryPool;
    /** the built web app's folder; default web/dist */
    webDist?: string;
  } = {},
): Promise<TestApi> {
  const env = readEnv({ ...process.env, ...options.env });
  const pool = createPool(db.appUrl, 10, "swarf-test-api");
  const app = createApp({
    services: { pool, env, ...(options.geometry ? { geometry: options.geometry } : {}) },
    health: options.health ?? (() => ({ migrations: "ok", workers: "ok" })),
    ...(options.routes ? { routes: options.routes } : {}),
    ...(options.webDist ? { webDist: options.webDist } : {}),
  });
  const server = createHttpServer(app, env);
  // The server shares its process with the test, whose synchronous work (judging a program,
  // planning inline) can hold the event loop for seconds: a keep-alive connection the server
  // closed on its 5 s timer in that time was reset under the test's next request on it
  // (ECONNRESET). Idle connections are left for the client to close.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    pool,
    env,
    async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse<T>> {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key) headers["X-API-Key"] = opts.key;
      let body: string | Buffer | undefined;
      if (opts.raw) {
        body = opts.raw.body;
        headers["Content-Type"] = opts.raw.contentType;
      } else if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers["Content-Type"] = "application/json";
      }
      const url = /^https?:\/\//.test(path)
        ? path
        : `${origin}${OUTSIDE_THE_PUBLIC_API.some((prefix) => path.startsWith(prefix)) ? path : `${API_BASE_PATH}${path}`}`;
      const response = await fetch(url, { method, headers, body });
      const bytes = Buffer.from(await response.arrayBuffer());
      const text = bytes.toString("utf8");
      let parsed: unknown = text;
      if ((response.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
      return { status: response.status, headers: response.headers, body: parsed as T, text, bytes };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}
