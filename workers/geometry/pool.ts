/**
 * The warm pool of geometry threads (piscina). Each thread loads opencascade.js once when it
 * starts (3.6 s and about 580 MB here) and then serves ingest requests for its lifetime: no
 * request ever pays for an OCCT start. A thread that dies mid-request (WASM out of memory, a
 * crash in OCCT) fails only that request, with GeometryUnavailable (503); piscina starts a
 * replacement, which warms up before it takes work.
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import type { GeometryRequest, IngestOutcome, IngestRequest } from "./protocol.ts";

/** the file's name (for a warning only) and the mesh's deflection when not the default */
export type IngestOptions = Omit<IngestRequest, "kind" | "bytes">;

const READY_TIMEOUT_MS = 120_000;
/** measured resident size of one thread with OCCT loaded, with headroom */
const BYTES_PER_THREAD = 700 * 1024 * 1024;

export class GeometryUnavailable extends Error {
  readonly code: "geometry_worker_crashed" | "geometry_timeout" | "geometry_pool_closed";
  constructor(code: GeometryUnavailable["code"], message: string) {
    super(message);
    this.name = "GeometryUnavailable";
    this.code = code;
  }
}

export interface GeometryPoolOptions {
  /** threads; default: one per core, as many as half the machine's memory allows */
  size?: number;
  /** per request; a request running longer is cut off and its thread replaced */
  timeoutMs?: number;
  /** the thread module (tests give their own) */
  threadModule?: string;
}

export interface GeometryPool {
  readonly size: number;
  /** resolves once every thread has loaded OCCT */
  ready(): Promise<void>;
  ingest(bytes: Uint8Array, options?: IngestOptions): Promise<IngestOutcome>;
  close(): Promise<void>;
}

export function defaultPoolSize(): number {
  const byMemory = Math.floor((os.totalmem() * 0.5) / BYTES_PER_THREAD);
  return Math.max(1, Math.min(os.availableParallelism(), byMemory));
}

export function createGeometryPool(options: GeometryPoolOptions = {}): GeometryPool {
  const size = options.size ?? defaultPoolSize();
  const timeoutMs = options.timeoutMs ?? 120_000;
  const piscina = new Piscina({
    filename: fileURLToPath(new URL("./bootstrap.mjs", import.meta.url)),
    workerData: { threadModule: options.threadModule ?? new URL("./thread.ts", import.meta.url).href },
    minThreads: size,
    maxThreads: size,
    idleTimeout: Number.POSITIVE_INFINITY,
    concurrentTasksPerWorker: 1,
  });
  // a thread that dies with no task is replaced by piscina; nothing to tell anybody
  piscina.on("error", () => {});
  let closed = false;

  async function run<T>(request: GeometryRequest, transfer: ArrayBuffer[] = []): Promise<T> {
    if (closed) throw new GeometryUnavailable("geometry_pool_closed", "the geometry service is shutting down");
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      return (await piscina.run(request, { signal, transferList: transfer })) as T;
    } catch (error) {
      if (signal.aborted) {
        throw new GeometryUnavailable("geometry_timeout", `processing the file took longer than ${Math.round(timeoutMs / 1000)} s`);
      }
      throw new GeometryUnavailable("geometry_worker_crashed", `the geometry worker stopped while processing the file: ${(error as Error).message}`);
    }
  }

  return {
    size,
    async ready() {
      // a thread answers a ping only once OCCT is loaded, but one warm thread could answer
      // every ping; wait until each thread has answered
      const seen = new Set<number>();
      const deadline = Date.now() + READY_TIMEOUT_MS;
      while (seen.size < size) {
        if (Date.now() > deadline) throw new Error(`only ${seen.size} of ${size} geometry threads came up`);
        const ids = await Promise.all(Array.from({ length: size }, () => run<number>({ kind: "ping" })));
        for (const id of ids) seen.add(id);
        if (seen.size < size) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    ingest(bytes, options = {}) {
      // a copy the thread may own: the caller's buffer stays usable (it is stored as the original).
      // Not bytes.slice(): on a Buffer that is a view, and transferring it would detach the caller's.
      const copy = new Uint8Array(bytes);
      return run<IngestOutcome>({ ...options, kind: "ingest", bytes: copy }, [copy.buffer as ArrayBuffer]);
    },
    async close() {
      closed = true;
      await piscina.destroy();
    },
  };
}
