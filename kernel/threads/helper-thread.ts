/**
 * A planner's helper threads (the stock simulation, the part's shadows): a TypeScript module on a
 * worker thread, started on first use and kept, and the synchronous way the planner reads their
 * replies.
 *
 * The planner is synchronous (it runs inside one task on a geometry thread), so it takes replies
 * synchronously: receiveMessageOnPort reads the channel without the event loop, and Atomics.wait
 * on a counter the helper bumps after each reply sleeps until there is one. A helper also counts
 * every message it takes up and finishes; a planner waiting while that count stands still for
 * `stallMs` takes the thread for dead (out of memory, say: a dying thread posts nothing) and
 * throws, so a plan fails, never hangs.
 */
import { receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { YOUNG_GENERATION_MB } from "./heap.ts";

/** Counters a helper shares with the planner: [0] replies posted, [1] messages taken up and finished. */
export const SIGNAL_BYTES = 8;

/** A worker thread running `threadModule`, started on first use and kept (started again after it exits). */
export class KeptThread {
  private thread: Worker | null = null;

  constructor(private readonly threadModule: URL) {}

  get(): Worker {
    if (this.thread === null) {
      const started = new Worker(new URL("./typescript-thread.mjs", import.meta.url), {
        workerData: { threadModule: this.threadModule.href },
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      });
      // a process whose plans are done may exit with the thread idle
      started.unref();
      started.on("error", () => {});
      started.on("exit", () => {
        if (this.thread === started) this.thread = null;
      });
      this.thread = started;
    }
    return this.thread;
  }

  /** The thread as it is now, null when none runs (tests stop it to see a planner notice). */
  running(): Worker | null {
    return this.thread;
  }
}

/** The helper's side: a reply posted, counted and woken up to. */
export function postReply(port: MessagePort, signal: Int32Array, message: unknown, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

/**
 * The next reply on `port`; undefined when there is none yet and `wait` is false. `what` names
 * the helper in the error a stalled one throws.
 */
export function receiveReply(
  port: MessagePort,
  signal: Int32Array,
  wait: boolean,
  stallMs: number,
  what: string,
): unknown {
  let beat = Atomics.load(signal, 1);
  let beatAt = performance.now();
  for (;;) {
    // read the counter before the port: a reply posted after this read wakes the wait below
    const seen = Atomics.load(signal, 0);
    const received = receiveMessageOnPort(port);
    if (received !== undefined) return received.message;
    if (!wait) return undefined;
    const now = performance.now();
    const latest = Atomics.load(signal, 1);
    if (latest !== beat) {
      beat = latest;
      beatAt = now;
    } else if (now - beatAt > stallMs) {
      throw new Error(`${what} stopped: its thread did nothing for ${stallMs / 1000} s`);
    }
    Atomics.wait(signal, 0, seen, Math.min(stallMs / 4, 1000));
  }
}
