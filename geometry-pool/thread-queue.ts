/**
 * Who gets the next free geometry thread. Requests wait here rather than in piscina's queue, so
 * that a request's timeout starts when a thread takes it up (time spent waiting is not the
 * file's) and so that the order is a fair one: when a thread frees, it goes to the owner (a
 * user) with the fewest requests running, the longest-waiting request first among equals. An
 * owner holds at most `ownerShare` threads even when nobody else waits, because somebody may come
 * next: with one thread to spare, another user's upload starts at once however heavy the files
 * running are. A request without an owner (a readiness ping; a plan, which has slots of its own)
 * is never held back by a share.
 */
import { GeometryUnavailable } from "./unavailable.ts";

export interface ThreadWait {
  /** whose request; unset: nobody's, not counted in any share */
  owner?: string;
  /** how long the request may wait for a thread (then geometry_busy); unset: until one frees */
  timeoutMs?: number;
  /** aborting it while the request waits fails it with geometry_aborted */
  signal?: AbortSignal;
}

export interface ThreadQueue {
  /** requests holding a thread */
  running(): number;
  /** requests waiting for one */
  waiting(): number;
  /** resolves, once the request may start, with the function that gives its thread back */
  acquire(wait?: ThreadWait): Promise<() => void>;
  /** fails every waiting request and any later one with geometry_pool_closed */
  close(): void;
}

interface Waiter {
  owner: string | undefined;
  start(): void;
  fail(error: GeometryUnavailable): void;
}

const closedError = () => new GeometryUnavailable("geometry_pool_closed", "the geometry service is shutting down");

export function createThreadQueue(threads: number, ownerShare: number): ThreadQueue {
  let running = 0;
  let closed = false;
  const runningByOwner = new Map<string, number>();
  /** in arrival order */
  const waiters: Waiter[] = [];

  const held = (owner: string | undefined) => (owner === undefined ? 0 : (runningByOwner.get(owner) ?? 0));

  function take(owner: string | undefined): () => void {
    running += 1;
    if (owner !== undefined) runningByOwner.set(owner, held(owner) + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      running -= 1;
      if (owner !== undefined) {
        const left = held(owner) - 1;
        if (left > 0) runningByOwner.set(owner, left);
        else runningByOwner.delete(owner);
      }
      dispatch();
    };
  }

  function dispatch(): void {
    while (running < threads) {
      let next: Waiter | undefined;
      for (const waiter of waiters) {
        const count = held(waiter.owner);
        if (waiter.owner !== undefined && count >= ownerShare) continue;
        // strictly fewer: among equals the earlier arrival stays chosen
        if (!next || count < held(next.owner)) next = waiter;
      }
      if (!next) return;
      waiters.splice(waiters.indexOf(next), 1);
      next.start();
    }
  }

  /** what kept a request waiting: the owner's own requests, or everybody's */
  function busy(owner: string | undefined, timeoutMs: number): GeometryUnavailable {
    const seconds = Math.round(timeoutMs / 100) / 10;
    const reason =
      owner !== undefined && held(owner) >= ownerShare
        ? `this user's other files held their share of the geometry threads (${ownerShare}) for ${seconds} s`
        : `every geometry thread was busy for ${seconds} s`;
    return new GeometryUnavailable("geometry_busy", `${reason}; the file was not processed`);
  }

  return {
    running: () => running,
    waiting: () => waiters.length,
    acquire(wait = {}) {
      if (closed) return Promise.reject(closedError());
      return new Promise((resolve, reject) => {
        const { owner, timeoutMs, signal } = wait;
        let timer: NodeJS.Timeout | undefined;
        const leave = () => {
          const at = waiters.indexOf(waiter);
          if (at >= 0) waiters.splice(at, 1);
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
        };
        const waiter: Waiter = {
          owner,
          start() {
            leave();
            resolve(take(owner));
          },
          fail(error) {
            leave();
            reject(error);
          },
        };
        const onAbort = () =>
          waiter.fail(new GeometryUnavailable("geometry_aborted", "the request was stopped before it started"));
        if (signal?.aborted) return onAbort();
        if (timeoutMs !== undefined) {
          timer = setTimeout(() => waiter.fail(busy(owner, timeoutMs)), timeoutMs);
        }
        signal?.addEventListener("abort", onAbort, { once: true });
        waiters.push(waiter);
        dispatch();
      });
    },
    close() {
      closed = true;
      for (const waiter of [...waiters]) waiter.fail(closedError());
    },
  };
}
