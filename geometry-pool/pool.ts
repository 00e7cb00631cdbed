/**
 * The warm pool of geometry threads (piscina). Each thread loads opencascade.js once when it
 * starts (3.6 s and about 580 MB here) and then serves ingest and plan requests for its
 * lifetime: no request ever pays for an OCCT start. A thread that dies mid-request (WASM out
 * of memory, a crash in OCCT) fails only that request, with GeometryUnavailable (503);
 * piscina starts a replacement, which warms up before it takes work.
 *
 * A request goes to piscina only once a thread is free for it (thread-queue.ts: a fair share
 * per owner, so one user's heavy files never hold every thread), and its timeout starts then:
 * waiting is not processing. A request no thread takes up within the queue bound fails with
 * geometry_busy. A task handed over while its thread is being replaced (after a crash or a
 * timeout) waits in piscina for that thread's start, a few seconds, inside its timeout.
 *
 * Plans run for minutes: with more than one thread, at most size - 1 plan at once, so uploads
 * always have a thread; plans wait for a thread without a bound.
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
import { MessageChannel, type Transferable } from "node:worker_threads";
import { Piscina } from "piscina";
import type { PlanInput } from "../kernel/cam/plan-types.ts";
import { YOUNG_GENERATION_MB } from "../kernel/threads/heap.ts";
import type {
  GeometryRequest,
  GeometryThreadData,
  IngestOutcome,
  IngestRequest,
  PlanOutcome,
  PlanProgressMessage,
  ViewerOutcome,
  ViewerRequest,
} from "./protocol.ts";
import { createThreadQueue } from "./thread-queue.ts";
import { GeometryUnavailable } from "./unavailable.ts";

export { GeometryUnavailable };

/** the file's name (for a warning only), the mesh's deflection when not the default, and whose request it is */
export interface IngestOptions extends Omit<IngestRequest, "kind" | "bytes"> {
  /** the user the file is processed for: threads are shared fairly between owners (thread-queue.ts) */
  owner?: string;
}

const READY_TIMEOUT_MS = 120_000;
/** measured resident size of one thread with OCCT loaded (580 MB) and, while it plans, its simulation thread (110 MB at peak), with a little headroom */
const BYTES_PER_THREAD = 700 * 1024 * 1024;

export interface GeometryPoolOptions {
  /** threads; default: one per core, as many as half the machine's memory allows */
  size?: number;
  /** per request, from its start on a thread; a request running longer is cut off and its thread replaced */
  timeoutMs?: number;
  /** how long an upload or re-mesh may wait for a thread before it fails with geometry_busy (default 30 s) */
  queueTimeoutMs?: number;
  /** per plan request (default 30 min) */
  planTimeoutMs?: number;
  /** the thread module (tests give their own) */
  threadModule?: string;
  /**
   * whether a plan simulates its operations on a thread of its own beside the planning thread
   * (kernel/cam/planner/verify-thread.ts; default true): a plan then keeps up to two cores busy
   */
  simulationThread?: boolean;
}

export interface PlanRunOptions {
  /** aborting it stops the plan at once (GeometryUnavailable geometry_aborted): its thread is terminated and replaced */
  signal?: AbortSignal;
  /** the planning's progress, 0..1, as the thread reports it */
  onProgress?(fraction: number): void;
  /** 4 bytes; the planner's hooks.cancelled() is true once Int32Array(cancel)[0] is non-zero */
  cancel?: SharedArrayBuffer;
}

/** What the pool is doing now, for metrics. */
export interface GeometryPoolUsage {
  threads: number;
  /** requests a thread is working on (uploads, plans, pings) */
  busy: number;
  /** requests waiting for a thread (plans waiting for a plan slot not included) */
  queued: number;
  plansRunning: number;
  /** plans waiting for a plan slot (one thread stays free for uploads) */
  plansWaiting: number;
}

export interface GeometryPool {
  readonly size: number;
  usage(): GeometryPoolUsage;
  /** resolves once every thread has loaded OCCT */
  ready(): Promise<void>;
  ingest(bytes: Uint8Array, options?: IngestOptions): Promise<IngestOutcome>;
  /** runs kernel/cam/plan.ts on a thread; the planner's refusals come back as outcomes */
  plan(input: PlanInput, options?: PlanRunOptions): Promise<PlanOutcome>;
  /** the viewer's stock or features for a planned job (viewer.ts), waiting for a thread as an upload does */
  viewer(request: Omit<ViewerRequest, "kind">, options?: { owner?: string }): Promise<ViewerOutcome>;
  close(): Promise<void>;
}

export function defaultPoolSize(): number {
  const byMemory = Math.floor((os.totalmem() * 0.5) / BYTES_PER_THREAD);
  return Math.max(1, Math.min(os.availableParallelism(), byMemory));
}

export function createGeometryPool(options: GeometryPoolOptions = {}): GeometryPool {
  const size = options.size ?? defaultPoolSize();
  const timeoutMs = options.timeoutMs ?? 120_000;
  const planTimeoutMs = options.planTimeoutMs ?? 30 * 60_000;
  const queueTimeoutMs = options.queueTimeoutMs ?? 30_000;
  const threads = createThreadQueue(size, Math.max(1, size - 1));
  // the plan slots: a queue with no owners is a plain counting semaphore
  const planSlots = createThreadQueue(Math.max(1, size - 1), 0);
  const piscina = new Piscina({
    filename: fileURLToPath(new URL("../kernel/threads/typescript-thread.mjs", import.meta.url)),
    workerData: {
      threadModule: options.threadModule ?? new URL("./thread.ts", import.meta.url).href,
      simulationThread: options.simulationThread ?? true,
    } satisfies GeometryThreadData,
    minThreads: size,
    maxThreads: size,
    idleTimeout: Number.POSITIVE_INFINITY,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    concurrentTasksPerWorker: 1,
  });
  // a thread that dies with no task is replaced by piscina; nothing to tell anybody
  piscina.on("error", () => {});
  let closed = false;

  /**
   * Waits for a thread (owner, queueTimeoutMs and signal as in ThreadWait), then runs the request
   * that `build` makes at that moment (a copy of a file is made only when a thread takes it).
   */
  async function run<T>(
    build: () => { request: GeometryRequest; transfer?: Transferable[] },
    limits: { timeoutMs?: number; signal?: AbortSignal; owner?: string; queueTimeoutMs?: number } = {},
  ): Promise<T> {
    if (closed) throw new GeometryUnavailable("geometry_pool_closed", "the geometry service is shutting down");
    const release = await threads.acquire({
      ...(limits.owner !== undefined ? { owner: limits.owner } : {}),
      ...(limits.queueTimeoutMs !== undefined ? { timeoutMs: limits.queueTimeoutMs } : {}),
      ...(limits.signal ? { signal: limits.signal } : {}),
    });
    const limit = limits.timeoutMs ?? timeoutMs;
    const timeout = AbortSignal.timeout(limit);
    const signal = limits.signal ? AbortSignal.any([timeout, limits.signal]) : timeout;
    try {
      const { request, transfer = [] } = build();
      return (await piscina.run(request, { signal, transferList: transfer })) as T;
    } catch (error) {
      if (limits.signal?.aborted)
        throw new GeometryUnavailable("geometry_aborted", "the request was stopped and its thread ended");
      if (timeout.aborted) {
        throw new GeometryUnavailable(
          "geometry_timeout",
          `processing the file took longer than ${Math.round(limit / 1000)} s`,
        );
      }
      throw new GeometryUnavailable(
        "geometry_worker_crashed",
        `the geometry worker stopped while processing the file: ${(error as Error).message}`,
      );
    } finally {
      release();
    }
  }

  return {
    size,
    usage() {
      // piscina holds a task only while the thread it was handed to is being replaced
      const starting = piscina.queueSize;
      return {
        threads: size,
        busy: threads.running() - starting,
        queued: threads.waiting() + starting,
        plansRunning: planSlots.running(),
        plansWaiting: planSlots.waiting(),
      };
    },
    async ready() {
      // a thread answers a ping only once OCCT is loaded, but one warm thread could answer
      // every ping; wait until each thread has answered. A ping waits for a thread's start, not
      // for a file: it has the ready deadline, not a request's timeout (threads starting on a
      // loaded machine took longer than a test pool's 1.5 s, and the pool never came up). Pings
      // have no owner: no share holds them back
      const seen = new Set<number>();
      const deadline = Date.now() + READY_TIMEOUT_MS;
      while (seen.size < size) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`only ${seen.size} of ${size} geometry threads came up`);
        const ids = await Promise.all(
          Array.from({ length: size }, () =>
            run<number>(() => ({ request: { kind: "ping" } }), { timeoutMs: left, queueTimeoutMs: left }),
          ),
        );
        for (const id of ids) seen.add(id);
        if (seen.size < size) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    ingest(bytes, { owner, ...options } = {}) {
      return run<IngestOutcome>(
        () => {
          // a copy the thread may own: the caller's buffer stays usable (it is stored as the original).
          // Not bytes.slice(): on a Buffer that is a view, and transferring it would detach the caller's.
          const copy = new Uint8Array(bytes);
          return { request: { ...options, kind: "ingest", bytes: copy }, transfer: [copy.buffer as ArrayBuffer] };
        },
        { queueTimeoutMs, ...(owner !== undefined ? { owner } : {}) },
      );
    },
    viewer(request, { owner } = {}) {
      return run<ViewerOutcome>(
        () => {
          // copies the thread may own, as for ingest
          const part = new Uint8Array(request.part);
          const plan = new Uint8Array(request.plan);
          return {
            request: { ...request, kind: "viewer", part, plan },
            transfer: [part.buffer as ArrayBuffer, plan.buffer as ArrayBuffer],
          };
        },
        { queueTimeoutMs, ...(owner !== undefined ? { owner } : {}) },
      );
    },
    async plan(input, options = {}) {
      const release = await planSlots.acquire(options.signal ? { signal: options.signal } : {});
      const { port1, port2 } = new MessageChannel();
      port1.on("message", (message: PlanProgressMessage) => {
        if (message.kind === "progress" && Number.isFinite(message.fraction)) options.onProgress?.(message.fraction);
      });
      try {
        const build = () => {
          const bytes = new Uint8Array(input.workpiece.bytes); // the thread owns a copy, as for ingest
          const request: GeometryRequest = {
            kind: "plan",
            input: { ...input, workpiece: { ...input.workpiece, bytes } },
            port: port2,
            cancel: options.cancel ?? new SharedArrayBuffer(4),
          };
          return { request, transfer: [bytes.buffer as ArrayBuffer, port2] };
        };
        // no owner and no queue bound: the plan slots keep plans to their share, and a plan waits
        return await run<PlanOutcome>(build, {
          timeoutMs: planTimeoutMs,
          ...(options.signal ? { signal: options.signal } : {}),
        });
      } finally {
        port1.close();
        release();
      }
    },
    async close() {
      closed = true;
      planSlots.close();
      threads.close();
      await piscina.destroy();
    },
  };
}
