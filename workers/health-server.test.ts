import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { after, before, describe, it } from "node:test";
import type { CheckState } from "../http/health.ts";
import { readEnv, repoRoot } from "../config/env.ts";
import { createMetricsRegistry } from "../metrics/registry.ts";
import { createTestDatabase, type TestDatabase } from "../test/support/database.ts";
import { insertTaskRecord } from "../test/support/task-records.ts";
import { createTestUser } from "../test/support/users.ts";
import { startWorkerHealthServer } from "./health-server.ts";

let db: TestDatabase;

before(async () => {
  db = await createTestDatabase();
});
after(async () => {
  await db?.drop();
});

describe("a worker's health server", () => {
  it("answers 200 when every check is ok and 503 naming the one that is not, the database included, on the configured keep-alive", async () => {
    let worker: CheckState = "ok";
    let databaseUp = true;
    const server = await startWorkerHealthServer({
      host: "127.0.0.1",
      port: 0,
      metrics: createMetricsRegistry("worker"),
      metricsToken: undefined,
      timeouts: readEnv({ HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "90", HTTP_HEADERS_TIMEOUT_SECONDS: "95" }),
      checks: () => ({ worker }),
      ping: async () => {
        if (!databaseUp) throw new Error("connection refused");
      },
    });
    try {
      const url = `http://127.0.0.1:${server.port}/healthz`;
      let response = await fetch(url);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("keep-alive"), "timeout=90", "HTTP_KEEP_ALIVE_TIMEOUT_SECONDS applies");
      assert.deepEqual(await response.json(), { status: "ok", checks: { worker: "ok", database: "ok" } });
      worker = "failing";
      response = await fetch(url);
      assert.equal(response.status, 503);
      assert.deepEqual(await response.json(), { status: "unavailable", checks: { worker: "failing", database: "ok" } });
      worker = "ok";
      databaseUp = false;
      response = await fetch(url);
      assert.equal(response.status, 503);
      assert.deepEqual(((await response.json()) as { checks: unknown }).checks, { worker: "ok", database: "failing" });
    } finally {
      await server.close();
    }
  });

  it("answers a database that does not answer with 503 within seconds, not a hang", async () => {
    const server = await startWorkerHealthServer({
      host: "127.0.0.1",
      port: 0,
      metrics: createMetricsRegistry("worker"),
      metricsToken: undefined,
      timeouts: readEnv({}),
      checks: () => ({}),
      ping: () => new Promise(() => {}),
    });
    try {
      const started = Date.now();
      const response = await fetch(`http://127.0.0.1:${server.port}/healthz`);
      assert.equal(response.status, 503);
      assert.ok(Date.now() - started < 5000);
    } finally {
      await server.close();
    }
  });

  it("guards /metrics with METRICS_TOKEN and answers other paths 404 in the error envelope", async () => {
    const server = await startWorkerHealthServer({
      host: "127.0.0.1",
      port: 0,
      metrics: createMetricsRegistry("worker"),
      metricsToken: "a-token-of-sixteen-or-more",
      timeouts: readEnv({}),
      checks: () => ({}),
      ping: async () => {},
    });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      for (const authorization of [
        undefined,
        "Bearer wrong",
        "a-token-of-sixteen-or-more",
        "Bearer a-token-of-sixteen-or-more-and-more",
      ]) {
        const response = await fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });
        assert.equal(response.status, 401, String(authorization));
        const body = (await response.json()) as { detail: { code: string; request_id: string } };
        assert.equal(body.detail.code, "metrics_token_invalid");
        assert.ok(body.detail.request_id);
      }
      const ok = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer a-token-of-sixteen-or-more" } });
      assert.equal(ok.status, 200);
      assert.match(await ok.text(), /process_cpu_user_seconds_total\{process_role="worker"\}/);
      const missing = await fetch(`${base}/backend-api/api/public/v1/projects`);
      assert.equal(missing.status, 404);
      assert.equal(((await missing.json()) as { detail: { code: string } }).detail.code, "route_not_found");
    } finally {
      await server.close();
    }
  });
});

describe("npm run worker", () => {
  it("serves /healthz and /metrics on WORKER_HTTP_PORT, and on SIGTERM drops its lease and exits 0", async () => {
    const user = await createTestUser(db.owner, "fleet");
    await insertTaskRecord(db.owner, { userId: user.id, workerTask: "test_idle" });
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "workers/main.ts", "--tasks", "purge_project,deliver_webhook"],
      {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: db.ownerUrl, WORKER_HTTP_PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          for (const line of stderr.split("\n")) {
            if (!line.includes('"worker ready"')) continue;
            resolve((JSON.parse(line) as { port: number }).port);
          }
        });
        child.once("exit", (code) => reject(new Error(`the worker exited (${code}) before it was ready: ${stderr}`)));
      });
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: "ok", checks: { worker: "ok", geometry: "ok", database: "ok" } });

      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      assert.match(metrics, /swarf_database_up\{process_role="worker"\} 1/);
      assert.match(metrics, /swarf_queue_jobs\{task="test_idle",state="ready",process_role="worker"\} 1/);
      assert.match(metrics, /swarf_workers\{process_role="worker"\} 1/);
      assert.match(metrics, /swarf_tasks_active\{task="test.test_idle",status="queued",process_role="worker"\} 1/);
      assert.doesNotMatch(
        metrics,
        /swarf_geometry_threads/,
        "no geometry threads in a process that runs no geometry task",
      );

      child.kill("SIGTERM");
      const [code] = (await once(child, "exit")) as [number | null];
      assert.equal(code, 0, stderr);
      const { rowCount } = await db.owner.query("select 1 from app_private.worker_leases");
      assert.equal(rowCount, 0, "the lease is dropped");
      await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`), "the port is closed");
    } finally {
      clearTimeout(killer);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });

  it("exits 1 naming WORKER_HTTP_PORT when its port is taken, and leaves no lease behind", async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as AddressInfo).port;
    const child = spawn(process.execPath, ["--import", "tsx", "workers/main.ts", "--tasks", "purge_project"], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: db.ownerUrl,
        WORKER_HTTP_PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    try {
      const [code] = (await once(child, "exit")) as [number | null];
      assert.equal(code, 1, stderr);
      assert.match(stderr, /WORKER_HTTP_PORT/);
      const { rowCount } = await db.owner.query("select 1 from app_private.worker_leases");
      assert.equal(rowCount, 0);
    } finally {
      clearTimeout(killer);
      taken.close();
    }
  });
});
