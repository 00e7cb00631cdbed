/**
 * Brings a database up to date: graphile-worker's own schema first (our migrations refer to
 * graphile_worker.add_job and its jobs view), then ours through graphile-migrate. Both take
 * an advisory lock, so processes starting together migrate once.
 */
import fs from "node:fs";
import path from "node:path";
import { Logger as MigrateLogger, migrate } from "graphile-migrate";
import { Logger as WorkerLogger, runMigrations as runWorkerMigrations } from "graphile-worker";
import { graphileLogFactory } from "../config/logger.ts";
import { repoRoot } from "../config/env.ts";

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

export async function migrateDatabase(ownerUrl: string, appRole: string): Promise<void> {
  await runWorkerMigrations({ connectionString: ownerUrl, logger: new WorkerLogger(graphileLogFactory("worker-migrate")) });
  const gmrc = readGmrc();
  await migrate({
    connectionString: ownerUrl,
    migrationsFolder: path.resolve(repoRoot, gmrc.migrationsFolder),
    placeholders: { ":APP_USER": appRole },
    logger: new MigrateLogger(graphileLogFactory("migrate")),
  });
}
