/**
 * `npm test`: gives the suites a real Postgres and runs them with node's test runner.
 *
 * Without DATABASE_URL it starts a throwaway embedded cluster (fsync off: nothing in it needs
 * to survive the run). With DATABASE_URL it uses that server, which must allow CREATE
 * DATABASE and CREATE ROLE. Either way it migrates one template database; each test file
 * clones it (test/support/database.ts), so files run in parallel without seeing each other.
 *
 * `npm test -- test/api/projects.test.ts` runs the files given.
 *
 * `npm test -- --database-only` leaves out the suites that never open a database (kernel/, pure
 * by the structure rules, and test/verification/, which plans in-process), and
 * test/fixture-parts/, whose database use is tasks/plan-cam-occt.test.ts's and whose cost is
 * planning, test/browser/, whose pages reach the database only through the API's routes, and the
 * README's walk-through, which brings its own embedded PostgreSQL: CI's second
 * pass, against a real server through DATABASE_URL, has nothing to learn from running them again.
 *
 * `npm run test:chaos` (this script with --chaos) runs the fault-injection suites instead:
 * test/chaos/*.chaos.ts, which `npm test` never runs. They kill workers, restart and cut off
 * the database and hang webhook receivers (docs/operations.md, "Faults and what Swarf does"),
 * so they run one file at a time, and every test is cut off after ten minutes.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { readEnv, repoRoot } from "../config/env.ts";
import { stopOnSignal } from "../config/shutdown.ts";
import { ensureDatabase, startEmbeddedCluster, type EmbeddedCluster } from "../db/embedded.ts";
import { migrateDatabase } from "../db/migrate.ts";
import { ensureAppRole } from "../db/roles.ts";
import { findFreePort } from "../test/support/ports.ts";

const TEST_ROOTS = [
  "api",
  "auth",
  "config",
  "contracts",
  "db",
  "geometry-pool",
  "http",
  "kernel",
  "metrics",
  "scripts",
  "tasks",
  "test",
  "webhooks",
  "workers",
];

const CHAOS_ROOTS = ["test/chaos"];

/**
 * What the second pass leaves out: suites that open no database, use it as another suite does
 * (the pages reach it only through the API's routes, which test/api runs on both), or bring their
 * own (the README's walk-through runs `npm start` on its embedded PostgreSQL whatever
 * DATABASE_URL says)
 */
const NOT_DATABASE_SUITES = [
  "kernel/",
  "test/verification/",
  "test/fixture-parts/",
  "test/browser/",
  "test/e2e/readme.test.ts",
];

function findTestFiles(roots: readonly string[] = TEST_ROOTS, suffix = ".test.ts"): string[] {
  return roots
    .flatMap((root) => {
      const dir = path.join(repoRoot, root);
      if (!fs.existsSync(dir)) return [];
      return fs
        .readdirSync(dir, { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(suffix))
        .map((file) => path.join(root, file));
    })
    .sort();
}

function withDatabase(url: string, database: string): string {
  const next = new URL(url);
  next.pathname = `/${database}`;
  return next.toString();
}

async function main(): Promise<number> {
  const env = readEnv();
  let cluster: EmbeddedCluster | undefined;
  let adminUrl: string;
  if (env.DATABASE_URL) {
    adminUrl = env.DATABASE_URL;
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-test-"));
    fs.chmodSync(dataDir, 0o755);
    cluster = await startEmbeddedCluster({
      dataDir,
      port: await findFreePort(),
      settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off", max_connections: "400" },
    });
    adminUrl = cluster.url("postgres");
    const started = cluster;
    stopOnSignal("tests", () => started.stop()); // Ctrl-C leaves no cluster behind
  }
  const template = `swarf_test_template_${process.pid}`;
  const templateUrl = withDatabase(adminUrl, template);
  try {
    await ensureDatabase(adminUrl, template);
    await ensureAppRole(templateUrl, env.APP_DB_ROLE);
    await migrateDatabase(templateUrl, env.APP_DB_ROLE);

    const chaos = process.argv.includes("--chaos");
    const databaseOnly = process.argv.includes("--database-only");
    const given = process.argv.slice(2).filter((arg) => arg !== "--chaos" && arg !== "--database-only");
    const files =
      given.length > 0
        ? given
        : chaos
          ? findTestFiles(CHAOS_ROOTS, ".chaos.ts")
          : findTestFiles().filter(
              (file) => !databaseOnly || !NOT_DATABASE_SUITES.some((suite) => file.startsWith(suite)),
            );
    const concurrency = chaos
      ? ["--test-concurrency=1", "--test-timeout=600000"]
      : [`--test-concurrency=${Math.max(2, os.cpus().length)}`];
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--test", "--test-reporter=spec", ...concurrency, ...files],
      {
        cwd: repoRoot,
        stdio: "inherit",
        env: {
          ...process.env,
          LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
          SWARF_TEST_ADMIN_URL: adminUrl,
          SWARF_TEST_TEMPLATE: template,
        },
      },
    );
    return await new Promise<number>((resolve) =>
      child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))),
    );
  } finally {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${admin.escapeIdentifier(template)} with (force)`).catch(() => {});
    await admin.end();
    await cluster?.stop();
  }
}

process.exitCode = await main();
