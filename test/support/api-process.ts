/**
 * The API in a process of its own, for the chaos suites: `node --import tsx test/support/api-process.ts`
 * with SWARF_TEST_API_URL (the API role's connection) and the API's usual settings in the
 * environment. It listens on a free loopback port and prints one JSON line `{"port", "pid"}` on
 * stdout when ready; SIGTERM stops it. /healthz checks the database (migrations and workers are
 * another process's business here and report ok).
 */
import type { AddressInfo } from "node:net";
import { createApp } from "../../api/app.ts";
import { createHttpServer } from "../../http/http-server.ts";
import { readEnv } from "../../config/env.ts";
import { createPool } from "../../db/pools.ts";

const url = process.env.SWARF_TEST_API_URL;
if (!url) throw new Error("SWARF_TEST_API_URL is not set");
const env = readEnv();
const pool = createPool(url, env.API_POOL_SIZE, "swarf-test-api");
const app = createApp({ services: { pool, env }, health: () => ({ migrations: "ok", workers: "ok" }) });
const server = createHttpServer(app, env);
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port, pid: process.pid })}\n`);

process.once("SIGTERM", () => {
  server.closeAllConnections();
  server.close();
  void pool.end().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
