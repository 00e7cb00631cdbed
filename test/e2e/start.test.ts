/**
 * `npm start` and the CLI as processes: the server serves the API once the database is
 * migrated and the workers run, logs as JSON without ever writing a key's secret, and stops
 * cleanly on SIGTERM; both bring their own PostgreSQL when there is no DATABASE_URL.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { repoRoot } from "../../config/env.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { findFreePort } from "../support/ports.ts";
import { spawnServer, startServer, stopServer as stop } from "../support/server-process.ts";
import { createTestUser } from "../support/users.ts";
import { waitFor } from "../support/task-records.ts";

let db: TestDatabase;
before(async () => {
  db = await createTestDatabase();
});
after(async () => {
  await db?.drop();
});

describe("npm start", () => {
  it("serves the API on DATABASE_URL, keeps keys out of its logs and stops on SIGTERM", async () => {
    const server = await startServer({ DATABASE_URL: db.ownerUrl });
    try {
      const health = (await (await fetch(`${server.origin}/healthz`)).json()) as { checks: Record<string, string> };
      assert.deepEqual(health.checks, { migrations: "ok", workers: "ok", geometry: "ok", database: "ok" });

      const user = await createTestUser(db.owner, "start");
      const secret = user.key.split("_live_")[1]!;
      const api = `${server.origin}/backend-api/api/public/v1`;
      const created = await fetch(`${api}/projects`, {
        method: "POST",
        headers: { "X-API-Key": user.key, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "Logged", customer: "nobody" }),
      });
      assert.equal(created.status, 201);
      assert.equal(created.headers.get("keep-alive"), "timeout=65", "idle connections outlive a load balancer's 60 s");
      // a refused key with a valid shape, and garbage, are logged no more than a good one
      const forged = `${user.key.split("_live_")[0]}_live_${"A".repeat(40)}`;
      assert.equal((await fetch(`${api}/projects`, { headers: { "X-API-Key": forged } })).status, 401);
      assert.equal((await fetch(`${api}/projects`, { headers: { "X-API-Key": `${secret}-junk` } })).status, 401);

      await waitFor("the access log line", async () => server.stderr().includes('"status":201'), { timeoutMs: 5000 });
      const logs = server.stderr();
      assert.ok(logs.includes(user.key.split("_live_")[0]!), "the key prefix is logged");
      assert.ok(!logs.includes(secret), "the key's secret part never is");
      assert.ok(!logs.includes("A".repeat(40)));

      // one /metrics for the process: its requests, its worker's view of the queue, its geometry threads
      const metrics = await (await fetch(`${server.origin}/metrics`)).text();
      assert.match(
        metrics,
        /swarf_http_request_duration_seconds_count\{[^}]*route="\/backend-api\/api\/public\/v1\/projects",status="201"/,
      );
      assert.match(metrics, /swarf_database_up\{process_role="api"\} 1/);
      assert.match(metrics, /swarf_workers\{process_role="api"\} 1/);
      assert.match(metrics, /swarf_geometry_threads\{state="idle",process_role="api"\}/);
      // and the operator read API answers, through the same key check
      const ops = await fetch(`${server.origin}/ops/graphql`, {
        method: "POST",
        headers: { "X-API-Key": user.key, "Content-Type": "application/json" },
        body: JSON.stringify({ query: "{ allTasks { totalCount } allWorkers { totalCount } }" }),
      });
      assert.deepEqual(await ops.json(), { data: { allTasks: { totalCount: 0 }, allWorkers: { totalCount: 0 } } });
    } finally {
      assert.equal(await stop(server), 0, server.stderr().slice(-3000));
    }
  });

  it("refuses to start with a bad HTTP timeout, naming it", async () => {
    const server = await spawnServer({ DATABASE_URL: db.ownerUrl, HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "a minute" });
    const [code] = (await once(server.child, "close")) as [number | null];
    assert.notEqual(code, 0);
    assert.match(server.stderr(), /invalid environment:\n {2}HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: /);
  });

  it("stops on SIGTERM while its geometry threads still load OCCT, with no error logged", async () => {
    const server = await spawnServer({ DATABASE_URL: db.ownerUrl, LOG_LEVEL: "info" });
    try {
      // the server and its workers are up; OCCT takes seconds more to load in the geometry thread
      await waitFor(
        "swarf ready",
        async () => server.stderr().includes('"msg":"swarf ready"') || server.child.exitCode !== null,
        {
          timeoutMs: 120_000,
          intervalMs: 20,
        },
      );
      const health = (await (await fetch(`${server.origin}/healthz`)).json()) as { checks: Record<string, string> };
      assert.equal(await stop(server), 0, server.stderr().slice(-3000));
      if (health.checks.geometry === "starting") {
        assert.ok(
          server.stderr().includes("stopped before the geometry threads were up"),
          server.stderr().slice(-3000),
        );
      }
      assert.ok(!server.stderr().includes('"level":50'), `an error was logged: ${server.stderr().slice(-3000)}`);
    } finally {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
    }
  });

  it("runs its own PostgreSQL without DATABASE_URL and leaves nothing running after SIGTERM", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-start-"));
    fs.chmodSync(dataDir, 0o755);
    const server = await startServer({ SWARF_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await findFreePort()) });
    try {
      const openapi = await fetch(`${server.origin}/backend-api/api/public/v1/openapi.json`);
      assert.equal(openapi.status, 200);
      assert.ok(fs.existsSync(path.join(dataDir, "pg", "PG_VERSION")), "the cluster lives under SWARF_DATA_DIR");
    } finally {
      assert.equal(await stop(server), 0, server.stderr().slice(-3000));
      await waitFor(
        "the embedded cluster stops",
        async () => !fs.existsSync(path.join(dataDir, "pg", "postmaster.pid")),
        {
          timeoutMs: 10_000,
        },
      );
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("lets the CLI start and stop the embedded cluster itself when no server runs", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-cli-"));
    fs.chmodSync(dataDir, 0o755);
    const { DATABASE_URL: _inherited, ...base } = process.env;
    const env = { ...base, SWARF_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await findFreePort()), LOG_LEVEL: "info" };
    try {
      const cli = (...args: string[]) =>
        promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], { cwd: repoRoot, env });
      const created = await cli("user", "create", "standalone@example.com");
      assert.match(created.stdout, /^[0-9a-f-]{36}\n$/);
      // the second run finds the cluster the first one initialised, and stops it again
      const key = await cli("key", "create", "standalone@example.com");
      assert.match(key.stdout, /^[a-z2-7]+_live_[A-Z2-7]{40}\n$/);
      assert.ok(!fs.existsSync(path.join(dataDir, "pg", "postmaster.pid")), "no cluster left running");
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
