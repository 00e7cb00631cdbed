/**
 * What the chaos suites (test/chaos/*.chaos.ts, `npm run test:chaos`) are built from: real
 * processes (workers: test/support/worker-process.ts; the API: test/support/api-process.ts)
 * that a suite can SIGKILL, a PostgreSQL cluster of a suite's own that it can stop and start,
 * and an HTTP client whose every request has a deadline. Every child a suite starts is killed
 * by `stopAll()` (call it in `after`), whatever happened.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { readEnv, repoRoot } from "../../config/env.ts";
import { ensureDatabase, startEmbeddedCluster, type EmbeddedCluster } from "../../db/embedded.ts";
import { migrateDatabase } from "../../db/migrate.ts";
import { createPool } from "../../db/pools.ts";
import { derivedAppUrl, ensureAppRole } from "../../db/roles.ts";
import type { TestApi } from "../support/api.ts";
import { findFreePort } from "../support/ports.ts";

/** how long a child may take to print its ready line (geometry threads, a loaded machine) */
const READY_TIMEOUT_MS = 90_000;
const KEEP_STDERR = 64 * 1024;

export interface ChildHandle {
  label: string;
  child: ChildProcess;
  pid: number;
  /** the JSON line it printed when ready */
  ready: Record<string, unknown>;
  stderr(): string;
  /** neither exited nor killed */
  alive(): boolean;
  /** SIGKILL, and wait for the exit */
  kill(): Promise<void>;
  /** SIGTERM, and wait for the exit (SIGKILL after `graceMs`); the exit code */
  stop(graceMs?: number): Promise<number | null>;
}

export class ProcessSet {
  private readonly children: ChildHandle[] = [];

  /** Starts `node --import tsx <script>` with `env` added, and waits for its first JSON line on stdout. */
  async spawn(label: string, script: string, env: Record<string, string>): Promise<ChildHandle> {
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LOG_LEVEL: process.env.SWARF_CHAOS_LOG_LEVEL ?? "warn", ...env },
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-KEEP_STDERR);
    });
    const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    const handle: ChildHandle = {
      label,
      child,
      pid: child.pid ?? -1,
      ready: {},
      stderr: () => stderr,
      alive: () => child.exitCode === null && child.signalCode === null,
      async kill() {
        if (handle.alive()) child.kill("SIGKILL");
        await exited;
      },
      async stop(graceMs = 20_000) {
        if (!handle.alive()) return child.exitCode;
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
        const [code] = await exited;
        clearTimeout(timer);
        return code;
      },
    };
    this.children.push(handle);
    handle.ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
      let stdout = "";
      const timer = setTimeout(
        () => reject(new Error(`${label} not ready after ${READY_TIMEOUT_MS} ms: ${stderr}`)),
        READY_TIMEOUT_MS,
      );
      child.stdout!.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const line = stdout.split("\n").find((l) => l.startsWith("{") && stdout.includes(`${l}\n`));
        if (line) {
          clearTimeout(timer);
          resolve(JSON.parse(line) as Record<string, unknown>);
        }
      });
      void exited.then(([code, signal]) => {
        clearTimeout(timer);
        reject(new Error(`${label} exited (${code ?? signal}) before it was ready: ${stderr}`));
      });
    });
    return handle;
  }

  /** SIGKILLs every child still running and waits for them; SWARF_CHAOS_VERBOSE=1 prints what they logged. */
  async stopAll(): Promise<void> {
    await Promise.all(this.children.map((handle) => handle.kill()));
    if (process.env.SWARF_CHAOS_VERBOSE === "1") {
      for (const handle of this.children)
        process.stderr.write(`--- ${handle.label} (pid ${handle.pid}) ---\n${handle.stderr()}\n`);
    }
  }
}

export interface WorkerHandle extends ChildHandle {
  poolId: string;
}

export interface WorkerOptions {
  /** tasks of test/support/worker-process.ts */
  tasks: readonly string[];
  concurrency?: number;
  heartbeatSeconds?: number;
  staleSeconds?: number;
  env?: Record<string, string>;
}

/** chaos workers renew every second and are dead after five silent seconds */
export const HEARTBEAT_SECONDS = 1;
export const STALE_SECONDS = 5;

export async function spawnWorker(
  set: ProcessSet,
  label: string,
  ownerUrl: string,
  options: WorkerOptions,
): Promise<WorkerHandle> {
  const handle = await set.spawn(label, "test/support/worker-process.ts", {
    SWARF_TEST_WORKER_URL: ownerUrl,
    SWARF_TEST_TASKS: options.tasks.join(","),
    SWARF_TEST_CONCURRENCY: String(options.concurrency ?? 2),
    SWARF_TEST_HEARTBEAT_SECONDS: String(options.heartbeatSeconds ?? HEARTBEAT_SECONDS),
    SWARF_TEST_STALE_SECONDS: String(options.staleSeconds ?? STALE_SECONDS),
    ...options.env,
  });
  return Object.assign(handle, { poolId: String(handle.ready.poolId) });
}

export interface Reply<T = unknown> {
  /** 0: no HTTP answer (the connection failed, or the deadline passed) */
  status: number;
  headers: Headers;
  body: T;
  text: string;
  ms: number;
  /** why there was no answer */
  error?: string;
  at: number;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** the deadline; default 15 s */
  timeoutMs?: number;
}

/** An HTTP client for an API origin: every request ends within its deadline, with an answer or an error. */
export function apiClient(origin: string) {
  return async function request<T = unknown>(
    method: string,
    pathname: string,
    options: RequestOptions = {},
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers["X-API-Key"] = options.key;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["Content-Type"] = "application/json";
    }
    const url = pathname.startsWith("/healthz") ? pathname : `${API_BASE_PATH}${pathname}`;
    const started = performance.now();
    const at = Date.now();
    try {
      const response = await fetch(`${origin}${url}`, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      });
      const text = await response.text();
      let parsed: unknown = text;
      if ((response.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
      return {
        status: response.status,
        headers: response.headers,
        body: parsed as T,
        text,
        ms: performance.now() - started,
        at,
      };
    } catch (error) {
      return {
        status: 0,
        headers: new Headers(),
        body: undefined as T,
        text: "",
        ms: performance.now() - started,
        error: String(error),
        at,
      };
    }
  };
}

export type ApiRequest = ReturnType<typeof apiClient>;

export interface ApiHandle extends ChildHandle {
  origin: string;
  request: ApiRequest;
}

export async function spawnApi(set: ProcessSet, appUrl: string, env: Record<string, string> = {}): Promise<ApiHandle> {
  const handle = await set.spawn("api", "test/support/api-process.ts", {
    SWARF_TEST_API_URL: appUrl,
    RATE_LIMIT_PER_MINUTE: "1000000",
    CAM_PLANNING_RATE_LIMIT_PER_HOUR: "100000",
    ...env,
  });
  const origin = `http://127.0.0.1:${Number(handle.ready.port)}`;
  return Object.assign(handle, { origin, request: apiClient(origin) });
}

/**
 * The test/support/api.ts interface over an API in another process, for the helpers that take
 * one (test/support/planning.ts); its pool (the API role's) is for what they store directly.
 */
export function remoteTestApi(origin: string, appUrl: string): TestApi {
  const request = apiClient(origin);
  const pool = createPool(appUrl, 2, "swarf-chaos-client");
  return {
    origin,
    pool,
    env: readEnv(),
    async request<T>(
      method: string,
      pathname: string,
      options: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {},
    ) {
      const reply = await request<T>(method, pathname, {
        ...(options.key ? { key: options.key } : {}),
        ...(options.body !== undefined ? { body: options.body } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
        timeoutMs: 60_000,
      });
      if (reply.status === 0) throw new Error(`${method} ${pathname}: ${reply.error}`);
      return {
        status: reply.status,
        headers: reply.headers,
        body: reply.body,
        text: reply.text,
        bytes: Buffer.from(reply.text),
      };
    },
    close: () => pool.end(),
  };
}

/** What a response that says "the database is away" must look like: 503, the spec's envelope, a code, Retry-After. */
export function unavailableProblem(reply: Reply): string | null {
  if (reply.status !== 503)
    return `status ${reply.status}${reply.error ? ` (${reply.error})` : ""}: ${reply.text.slice(0, 300)}`;
  const body = reply.body as { detail?: Record<string, unknown> };
  const detail = body?.detail;
  if (!detail || typeof detail !== "object") return `no error envelope: ${reply.text.slice(0, 300)}`;
  const keys = Object.keys(detail).sort().join(",");
  if (keys !== "code,details,message,request_id") return `envelope keys ${keys}`;
  if (detail.code !== "database_unavailable") return `code ${String(detail.code)}`;
  const retryAfter = reply.headers.get("retry-after");
  if (!retryAfter || !/^\d+$/.test(retryAfter)) return `Retry-After ${retryAfter}`;
  return null;
}

/**
 * A PostgreSQL cluster of the suite's own (the embedded binaries), with one migrated database:
 * a suite that stops and starts the server cannot do it to the one every other suite uses.
 */
export interface OwnCluster {
  ownerUrl: string;
  appUrl: string;
  /** an owner pool, for setting up and inspecting; it reconnects after a restart */
  owner: pg.Pool;
  /** stops the server (fast shutdown: sessions are ended); ms it took */
  stop(): Promise<number>;
  /** starts it again on the same port and data; ms it took */
  start(): Promise<number>;
  /** stops it and removes its data */
  destroy(): Promise<void>;
}

export async function startOwnCluster(): Promise<OwnCluster> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-chaos-"));
  fs.chmodSync(dataDir, 0o755);
  const port = await findFreePort();
  const settings = { fsync: "off", synchronous_commit: "off", full_page_writes: "off", max_connections: "200" };
  let cluster: EmbeddedCluster | null = await startEmbeddedCluster({ dataDir, port, settings });
  const database = "swarf_chaos";
  const ownerUrl = cluster.url(database);
  const role = readEnv().APP_DB_ROLE;
  await ensureDatabase(cluster.url("postgres"), database);
  await ensureAppRole(ownerUrl, role);
  await migrateDatabase(ownerUrl, role);
  const owner = createPool(ownerUrl, 4, "swarf-chaos-owner");
  return {
    ownerUrl,
    appUrl: derivedAppUrl(ownerUrl, role),
    owner,
    async stop() {
      const started = performance.now();
      await cluster?.stop();
      cluster = null;
      return performance.now() - started;
    },
    async start() {
      const started = performance.now();
      cluster = await startEmbeddedCluster({ dataDir, port, settings });
      return performance.now() - started;
    },
    async destroy() {
      await owner.end().catch(() => {});
      await cluster?.stop();
      cluster = null;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `step` again and again until `stop()` is called; what it returns is collected. */
export function loop<T>(step: () => Promise<T>): { results: T[]; stop(): Promise<T[]> } {
  const results: T[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      results.push(await step());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    results,
    async stop() {
      running = false;
      await done;
      return results;
    },
  };
}

export const seconds = (ms: number) => Math.round(ms / 100) / 10;
