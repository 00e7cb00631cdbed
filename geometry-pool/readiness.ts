/**
 * The health check of a process's geometry threads, for /healthz: "starting" while they load
 * OCCT (several seconds), then "ok" or "failing". Threads ended by the process's own stop
 * sequence while they load are no failure: that is logged as information, not as an error.
 */
import type { CheckState } from "../http/health.ts";
import { log } from "../config/logger.ts";
import type { GeometryPool } from "./pool.ts";

export interface GeometryReadiness {
  state(): CheckState;
  /** call at the start of the stop sequence */
  stopping(): void;
}

export function watchGeometryReadiness(geometry: GeometryPool | undefined): GeometryReadiness {
  let state: CheckState = geometry ? "starting" : "ok";
  let stopping = false;
  void geometry?.ready().then(
    () => (state = "ok"),
    (error: unknown) => {
      state = "failing";
      if (stopping) log.info("stopped before the geometry threads were up");
      else log.error({ err: error }, "the geometry threads did not start");
    },
  );
  return {
    state: () => state,
    stopping: () => {
      stopping = true;
    },
  };
}
