/**
 * Brings a database up to date: graphile-worker's own schema first (our migrations refer to
 * graphile_worker.add_job and its jobs view), then ours through graphile-migrate, then the
 * reference data kernel/ holds (db/seed: machines, materials, the standard tool catalogue).
 *
 * graphile-migrate only *tries* its advisory lock and fails when another process holds it,
 * which is exactly what happens when an API process and a fleet worker start together. So
 * processes queue on a blocking lock of our own first; the next one finds nothing to do.
 */
import fs from "node:fs";
import path from "node:path";
import { Logger as MigrateLogger, migrate } from "graphile-migrate";
import { clearAllPools as releaseMigratePools } from "graphile-migrate/dist/pgReal.js";
import pg from "pg";
import { Logger as WorkerLogger, runMigrations as runWorkerMigrations } from "graphile-worker";
import { graphileLogFactory } from "../config/logger.ts";
import { repoRoot } from "../config/env.ts";
import { seedReferenceData } from "./seed/index.ts";

interface Gmrc {
  migrationsFolder: string;
}

function readGmrc(): Gmrc {
  // .gmrc is JSON with // comment lines (the graphile-migrate CLI reads the same file)
  const text = fs.readFileSync(path.join(repoRoot, ".gmrc"), "utf8");
  const json = text
    .split("\n")
    .filter((line) => !line.trim().startsWith("//"))
    .join("\n");
  return JSON.parse(json) as Gmrc;
}

const MIGRATION_LOCK = "7311642751"; // arbitrary, distinct from graphile-migrate's own

export async function migrateDatabase(ownerUrl: string, appRole: string): Promise<void> {
  const lock = new pg.Client({ connectionString: ownerUrl });
  await lock.connect();
  try {
    await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migrateLocked(ownerUrl, appRole);
    await seedReferenceData(lock);
  } finally {
    await lock.end(); // the session lock goes with the session
  }
}

async function migrateLocked(ownerUrl: string, appRole: string): Promise<void> {
  await runWorkerMigrations({
    connectionString: ownerUrl,
    logger: new WorkerLogger(graphileLogFactory("worker-migrate")),
  });
  const gmrc = readGmrc();
  try {
    await migrate({
      connectionString: ownerUrl,
      migrationsFolder: path.resolve(repoRoot, gmrc.migrationsFolder),
      placeholders: { ":APP_USER": appRole },
      logger: new MigrateLogger(graphileLogFactory("migrate")),
    });
  } finally {
    // graphile-migrate keeps its pool 200 ms after use, and calls process.exit(1) when any of
    // its idle connections errors: a cluster stopped in that window (the CLI's embedded one,
    // or after a failed migration) killed the process, hiding why. Release it now.
    releaseMigratePools();
  }
}
