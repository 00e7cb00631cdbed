/**
 * The shadow thread (shadow-thread.ts): for each slicer's channel, a ShadowMaker that makes the
 * shadows asked for, in the order asked, and posts each back (its arrays transferred, not
 * copied). An exception is a reply too: the planner rethrows it.
 */
import { parentPort } from "node:worker_threads";
import { ShadowMaker, needKey, type ShadowNeed } from "../milling/shadows.ts";
import { postReply } from "../../threads/helper-thread.ts";
import { lowerThreadPriority } from "../../threads/priority.ts";
import { pack, type FromShadows, type ShadowsOpen } from "./shadow-thread.ts";

if (parentPort === null) throw new Error("shadow-thread-body.ts runs as a worker thread (shadow-thread.ts starts it)");
// the planner waiting on this thread is the plan's critical path (threads/priority.ts)
lowerThreadPriority();

parentPort.on("message", (open: ShadowsOpen) => {
  const signal = new Int32Array(open.signal);
  let maker: ShadowMaker | null = new ShadowMaker(open.triangles);
  open.port.on("message", (need: ShadowNeed) => {
    // alive: the planner waiting for a shadow watches this move (helper-thread.ts)
    Atomics.add(signal, 1, 1);
    try {
      if (maker === null) return;
      const paths = pack(maker.make(need));
      const reply: FromShadows = { kind: "made", key: needKey(need), paths };
      postReply(open.port, signal, reply, [
        paths.counts.buffer as ArrayBuffer,
        paths.coordinates.buffer as ArrayBuffer,
      ]);
    } catch (error) {
      postReply(open.port, signal, {
        kind: "failed",
        message: error instanceof Error ? error.message : String(error),
      } satisfies FromShadows);
    } finally {
      Atomics.add(signal, 1, 1);
    }
  });
  // the planner closed the channel: the setup is done or given up
  open.port.on("close", () => {
    maker = null;
  });
});
