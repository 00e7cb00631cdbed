/**
 * The part's shadows made on a thread of their own, ahead of the levels that read them.
 *
 * The shadows and their grown keep-outs (milling/shadows.ts) are a fifth to a quarter of a NIST
 * part's planning (the whole plan again with every shadow already made: STC-06 58 s instead of
 * 72, FTC-10 21 to 25 instead of 30), and none of them depends on the stock: a generator names
 * the shadows of its next levels (regions.ts: ShadowsAhead) and this thread makes them while
 * the planner clears the level before. The thread makes every shadow in the order the planner asks
 * for it, so they come out as the planner's own ShadowQueue would make them: the same plan with
 * the thread or without.
 *
 * One shadow thread per planning thread, started on first use and kept; each setup's slicer opens
 * its own channel with the part's triangles, closed when the setup is done or given up. A thread
 * that throws answers with its error and the plan fails with it; one that dies answers nothing,
 * and the planner gives up after STALL_MS without a sign of it working.
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { AskedShadows, type ShadowNeed } from "../milling/shadows.ts";
import type { Triangles } from "../milling/triangles.ts";
import type { Paths64 } from "../milling/polygons.ts";
import { KeptThread, receiveReply, SIGNAL_BYTES } from "../../threads/helper-thread.ts";

/** How long the thread may work on one shadow without a sign of life (one takes up to a second). */
const STALL_MS = 60_000;

/** A slicer's channel to the shadow thread, sent as the thread's message. */
export interface ShadowsOpen {
  port: MessagePort;
  /** an Int32Array's buffer (threads/helper-thread.ts) */
  signal: SharedArrayBuffer;
  triangles: Triangles;
}

/** A region as it crosses between threads: each loop's vertex count, and x, y of every vertex. */
export interface PackedPaths {
  counts: Int32Array;
  coordinates: Int32Array;
}

export type FromShadows = { kind: "made"; key: string; paths: PackedPaths } | { kind: "failed"; message: string };

const thread = new KeptThread(new URL("./shadow-thread-body.ts", import.meta.url));

/** A slicer's shadows, made on the shadow thread in the order asked. */
export class ThreadedShadows extends AskedShadows {
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(SIGNAL_BYTES));
  private readonly replies = new Map<string, Paths64>();

  /** `stallMs`: how long the thread may work on one shadow before the planner gives up */
  constructor(
    triangles: Triangles,
    private readonly stallMs = STALL_MS,
  ) {
    super();
    const { port1, port2 } = new MessageChannel();
    const open: ShadowsOpen = { port: port2, signal: this.signal.buffer as SharedArrayBuffer, triangles };
    thread.get().postMessage(open, [port2]);
    this.port = port1;
  }

  close(): void {
    this.port.close();
  }

  protected asking(need: ShadowNeed): void {
    this.port.postMessage(need);
  }

  protected made(_need: ShadowNeed, key: string): Paths64 {
    for (;;) {
      const made = this.replies.get(key);
      if (made !== undefined) return made;
      const reply = receiveReply(this.port, this.signal, true, this.stallMs, "the shadow thread") as FromShadows;
      if (reply.kind === "failed") throw new Error(`the part's shadows failed: ${reply.message}`);
      this.replies.set(reply.key, unpack(reply.paths));
    }
  }
}

export function pack(paths: Paths64): PackedPaths {
  const counts = new Int32Array(paths.length);
  let total = 0;
  paths.forEach((path, i) => {
    counts[i] = path.length;
    total += path.length;
  });
  const coordinates = new Int32Array(2 * total);
  let o = 0;
  for (const path of paths) {
    for (const p of path) {
      coordinates[o] = p.x;
      coordinates[o + 1] = p.y;
      o += 2;
    }
  }
  return { counts, coordinates };
}

export function unpack(packed: PackedPaths): Paths64 {
  const paths: Paths64 = [];
  let o = 0;
  for (const count of packed.counts) {
    const path = new Array<{ x: number; y: number }>(count);
    for (let i = 0; i < count; i += 1, o += 2)
      path[i] = { x: packed.coordinates[o] as number, y: packed.coordinates[o + 1] as number };
    paths.push(path);
  }
  return paths;
}
