/** The process's geometry threads: `swarf_geometry_threads{state}` and plan slots. */
import { Gauge, type Registry } from "prom-client";
import type { GeometryPool } from "../geometry-pool/pool.ts";

export function geometryMetrics(registry: Registry, pool: GeometryPool): void {
  new Gauge({
    name: "swarf_geometry_threads",
    help: "Geometry threads (OCCT) of this process: busy, idle, and requests queued for one",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const usage = pool.usage();
      this.set({ state: "busy" }, usage.busy);
      this.set({ state: "idle" }, Math.max(0, usage.threads - usage.busy));
      this.set({ state: "queued" }, usage.queued);
    },
  });
  new Gauge({
    name: "swarf_geometry_plans",
    help: "CAM plans of this process: running on a thread, or waiting for a plan slot",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const usage = pool.usage();
      this.set({ state: "running" }, usage.plansRunning);
      this.set({ state: "waiting" }, usage.plansWaiting);
    },
  });
}
