/**
 * Benchmark child: the real API (createApp: request ids, auth, rate limit, RLS transaction)
 * over a pool on the app role's connection, like `npm start` but without the worker.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "../../api/app.ts";
import { readEnv } from "../../config/env.ts";
import { createPool } from "../../db/pools.ts";
import { failStartup, onShutdown, sendToParent } from "./child-runtime.ts";
import { CHILD_ENV, requiredEnv } from "./protocol.ts";

try {
  const env = readEnv();
  const pool = createPool(requiredEnv(CHILD_ENV.appUrl), env.API_POOL_SIZE, requiredEnv(CHILD_ENV.applicationName));
  const app = createApp({ services: { pool, env }, health: () => ({ migrations: "ok", workers: "ok" }) });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onShutdown(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await pool.end();
  });
  sendToParent({ type: "ready", port: (server.address() as AddressInfo).port });
} catch (error) {
  failStartup(error);
}
