/** SIGINT/SIGTERM: run the process's stop sequence once, then exit. */
import { log } from "./logger.ts";

export function stopOnSignal(what: string, stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, `${what} stopping`);
      stop().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, `${what} did not stop cleanly`);
          process.exit(1);
        },
      );
    });
  }
}
