/**
 * Finds or starts the database, makes the API role and migrates: what `npm start`, the worker
 * entrypoint and the CLI all do first.
 */
import { dataDir, type Env } from "../config/env.ts";
import { ensureDatabase, startEmbeddedCluster } from "./embedded.ts";
import { migrateDatabase } from "./migrate.ts";
import { derivedAppUrl, ensureAppRole } from "./roles.ts";

export interface Database {
  /** owner connection: migrations, workers, CLI */
  ownerUrl: string;
  /** the API's non-superuser connection */
  appUrl: string;
  /** stops the embedded cluster if this process started it */
  close(): Promise<void>;
}

const EMBEDDED_DATABASE_NAME = "swarf";

export async function openDatabase(env: Env, log?: (line: string) => void): Promise<Database> {
  let ownerUrl: string;
  let close = async () => {};
  if (env.DATABASE_URL) {
    ownerUrl = env.DATABASE_URL;
  } else {
    const cluster = await startEmbeddedCluster({ dataDir: dataDir(env), port: env.EMBEDDED_PG_PORT, log });
    await ensureDatabase(cluster.url("postgres"), EMBEDDED_DATABASE_NAME);
    ownerUrl = cluster.url(EMBEDDED_DATABASE_NAME);
    close = () => cluster.stop();
  }
  try {
    if (!env.APP_DATABASE_URL) await ensureAppRole(ownerUrl, env.APP_DB_ROLE);
    await migrateDatabase(ownerUrl, env.APP_DB_ROLE);
  } catch (error) {
    await close();
    throw error;
  }
  return { ownerUrl, appUrl: env.APP_DATABASE_URL ?? derivedAppUrl(ownerUrl, env.APP_DB_ROLE), close };
}
