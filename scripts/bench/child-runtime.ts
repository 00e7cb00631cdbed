/**
 * What every benchmark child does: report to the parent, and stop cleanly on SIGTERM (the
 * parent is done with it), on SIGINT (Ctrl-C, which reaches the whole process group, or the
 * parent aborting) or when the parent goes away (the IPC channel closes), so no child
 * outlives the benchmark.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { log } from "../../config/logger.ts";
import type { ChildMessage } from "./protocol.ts";

export function sendToParent(message: ChildMessage): void {
  process.send?.(message);
}

/** Runs `stop` once on the first shutdown cue, then exits; a stuck stop is cut after 5 s. */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = (cue: "SIGTERM" | "SIGINT" | "disconnect") => {
    if (stopping) return;
    stopping = true;
    // interrupted, the database goes down with us: every request or job in flight fails, and
    // an error line for each would bury the benchmark's own
    if (cue !== "SIGTERM") log.level = "fatal";
    setTimeout(() => process.exit(1), 5000).unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("disconnect", () => shutdown("disconnect"));
}

/** Reports a startup failure and exits, so the parent's wait for "ready" ends at once. */
export function failStartup(error: unknown): never {
  console.error(error);
  process.exit(1);
}

/**
 * Serves `app` on a free loopback port and tells the parent it is ready there. Returns what
 * closes the server, its connections included: a child's shutdown calls it first.
 */
export async function serveForParent(app: http.RequestListener): Promise<() => Promise<void>> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  sendToParent({ type: "ready", port: (server.address() as AddressInfo).port });
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
