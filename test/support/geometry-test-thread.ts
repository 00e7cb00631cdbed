/**
 * A stand-in thread for testing the geometry pool's mechanics (crash, hang, readiness) without
 * OCCT: the pool's behaviour around a thread is what is under test, not geometry.
 */
import { threadId } from "node:worker_threads";
import type { GeometryRequest, IngestOutcome } from "../../workers/geometry/protocol.ts";

// a slow start, like OCCT's, so readiness has something to wait for
await new Promise((resolve) => setTimeout(resolve, 300));

export default async function handle(request: GeometryRequest): Promise<IngestOutcome | number> {
  if (request.kind === "ping") return threadId;
  const command = new TextDecoder().decode(request.bytes);
  if (command === "crash") process.exit(3); // in a worker thread this ends the thread only
  if (command === "hang") await new Promise(() => {});
  return { ok: false, code: "echo", message: command, details: { threadId } };
}
