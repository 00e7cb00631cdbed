/**
 * One Prometheus registry per process role (the API, a worker), with Node's own metrics
 * (CPU, memory, event-loop lag, garbage collection) and a `process_role` label, so a fleet's
 * series can be told apart beside the usual instance label. A registry is an object, not
 * prom-client's global one: tests start several apps in one process.
 */
import { collectDefaultMetrics, Registry } from "prom-client";

export type ProcessRole = "api" | "worker";

export function createMetricsRegistry(role: ProcessRole): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ process_role: role });
  collectDefaultMetrics({ register: registry });
  return registry;
}
