/**
 * Task runs of this worker, from graphile-worker's events:
 * `swarf_task_duration_seconds{task,outcome}` (outcome: success, error; an error is retried
 * while attempts are left, see swarf_task_failures_total for the ones that are not).
 */
import { Counter, Histogram, type Registry } from "prom-client";
import type { WorkerEvents } from "graphile-worker";

export function taskMetrics(registry: Registry, events: WorkerEvents): void {
  const duration = new Histogram({
    name: "swarf_task_duration_seconds",
    help: "Time one attempt of a task took on this worker, by outcome",
    labelNames: ["task", "outcome"] as const,
    // webhook deliveries take milliseconds, plans minutes
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120, 300, 600, 1800],
    registers: [registry],
  });
  const failures = new Counter({
    name: "swarf_task_failures_total",
    help: "Tasks whose last attempt failed on this worker (no attempt left)",
    labelNames: ["task"] as const,
    registers: [registry],
  });
  const started = new Map<string, number>();
  events.on("job:start", ({ job }) => {
    started.set(job.id, performance.now());
  });
  events.on("job:complete", ({ job, error }) => {
    const at = started.get(job.id);
    started.delete(job.id);
    if (at === undefined) return;
    duration.observe(
      { task: job.task_identifier, outcome: error ? "error" : "success" },
      (performance.now() - at) / 1000,
    );
  });
  events.on("job:failed", ({ job }) => {
    failures.inc({ task: job.task_identifier });
  });
}

/** `swarf_webhook_attempts_total{outcome}`: delivered, retrying (5xx, network), failed (4xx, last attempt) */
export function webhookAttemptCounter(registry: Registry): (outcome: string) => void {
  const attempts = new Counter({
    name: "swarf_webhook_attempts_total",
    help: "Webhook delivery attempts made by this worker, by the outcome recorded",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  return (outcome) => attempts.inc({ outcome });
}
