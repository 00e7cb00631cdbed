/**
 * A stand-in thread for testing the geometry pool's mechanics (crash, hang, a slow file,
 * readiness) without OCCT: the pool's behaviour around a thread is what is under test, not
 * geometry.
 */
import { threadId } from "node:worker_threads";
import type { GeometryRequest, IngestOutcome, PlanOutcome, ViewerOutcome } from "../../geometry-pool/protocol.ts";

// a slow start, like OCCT's, so readiness has something to wait for
await new Promise((resolve) => setTimeout(resolve, 300));

export default async function handle(
  request: GeometryRequest,
): Promise<IngestOutcome | PlanOutcome | ViewerOutcome | number> {
  if (request.kind === "ping") return threadId;
  if (request.kind === "viewer") return { kind: "failed", message: "this test thread has no viewer" };
  if (request.kind === "plan") {
    request.port.close();
    return { kind: "failed", message: "this test thread does not plan (test/support/plan-test-thread.ts does)" };
  }
  const command = new TextDecoder().decode(request.bytes);
  if (command === "crash") process.exit(3); // in a worker thread this ends the thread only
  if (command === "hang") await new Promise(() => {});
  // "sleep:800": busy for that long, then the echo
  const sleep = /^sleep:(\d+)$/.exec(command);
  if (sleep) await new Promise((resolve) => setTimeout(resolve, Number(sleep[1])));
  return { ok: false, code: "echo", message: command, details: { threadId } };
}
