/**
 * Benchmark child: the real API (createApp) with a warm geometry pool, as `npm start` serves
 * uploads, but without the worker runner. GEOMETRY_WORKERS threads (the benchmark sets 1).
 * Reports its resident size just before the pool starts and once every thread has loaded
 * OCCT: the difference is what the geometry threads cost.
 */
import { createApp } from "../../../api/app.ts";
import { readEnv } from "../../../config/env.ts";
import { createPool } from "../../../db/pools.ts";
import { createGeometryPool, type GeometryPool } from "../../../geometry-pool/pool.ts";
import { failStartup, onShutdown, sendToParent, serveForParent } from "../child-runtime.ts";
import { CHILD_ENV, requiredEnv } from "../protocol.ts";

/** set once the parent stops us: a warm-up cut short by that is no failure to report */
let stopping = false;

try {
  const env = readEnv();
  const pool = createPool(requiredEnv(CHILD_ENV.appUrl), env.API_POOL_SIZE, requiredEnv(CHILD_ENV.applicationName));
  let geometry: GeometryPool | undefined;
  let closeServer: (() => Promise<void>) | undefined;
  onShutdown(async () => {
    stopping = true;
    await closeServer?.();
    await geometry?.close();
    await pool.end();
  });

  sendToParent({ type: "memory", phase: "before-pool", rssBytes: process.memoryUsage.rss() });
  geometry = createGeometryPool({ size: env.GEOMETRY_WORKERS ?? 1, queueTimeoutMs: env.GEOMETRY_QUEUE_TIMEOUT_MS });
  await geometry.ready();
  sendToParent({ type: "memory", phase: "pool-ready", rssBytes: process.memoryUsage.rss() });

  const app = createApp({
    services: { pool, env, geometry },
    health: () => ({ migrations: "ok", workers: "ok", geometry: "ok" }),
  });
  closeServer = await serveForParent(app);
} catch (error) {
  if (!stopping) failStartup(error);
}
