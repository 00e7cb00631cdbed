/**
 * Benchmark child: the real API (createApp: request ids, auth, rate limit, RLS transaction)
 * over a pool on the app role's connection, like `npm start` but without the worker.
 */
import { createApp } from "../../api/app.ts";
import { readEnv } from "../../config/env.ts";
import { createPool } from "../../db/pools.ts";
import { failStartup, onShutdown, serveForParent } from "./child-runtime.ts";
import { CHILD_ENV, requiredEnv } from "./protocol.ts";

try {
  const env = readEnv();
  const pool = createPool(requiredEnv(CHILD_ENV.appUrl), env.API_POOL_SIZE, requiredEnv(CHILD_ENV.applicationName));
  const app = createApp({ services: { pool, env }, health: () => ({ migrations: "ok", workers: "ok" }) });
  const closeServer = await serveForParent(app);
  onShutdown(async () => {
    await closeServer();
    await pool.end();
  });
} catch (error) {
  failStartup(error);
}
