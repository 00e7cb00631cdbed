/**
 * The cluster's state as the database holds it, read at each scrape through the ops views
 * (sql/migrations 000009) as the owner: queue depth per task and state, live workers, task
 * records queued or running, webhook deliveries pending. Every process reports the same
 * numbers; aggregate them with max(), not sum(). When the database does not answer within
 * a second, `swarf_database_up` is 0 and the other gauges keep their last values.
 */
import { Gauge, type Registry } from "prom-client";
import type pg from "pg";

interface QueueRow {
  task_name: string;
  ready: number;
  scheduled: number;
  running: number;
  failed: number;
}

interface Snapshot {
  queue: QueueRow[];
  workers: number;
  tasks: { task_name: string; status: string; count: number }[];
  pendingDeliveries: number;
}

async function readSnapshot(pool: pg.Pool): Promise<Snapshot> {
  const client = await pool.connect();
  try {
    await client.query("begin read only; set local statement_timeout = 1000");
    const queue = await client.query<QueueRow>(
      "select task_name, ready, scheduled, running, failed from ops.queue_depth",
    );
    const workers = await client.query<{ n: number }>("select count(*)::integer as n from ops.workers");
    const tasks = await client.query<{ task_name: string; status: string; count: number }>(
      "select task_name, status, count(*)::integer as count from app_public.tasks where status in ('queued', 'running') group by 1, 2",
    );
    const pending = await client.query<{ n: number }>(
      "select count(*)::integer as n from app_public.webhook_deliveries where status = 'pending'",
    );
    await client.query("commit");
    return {
      queue: queue.rows,
      workers: workers.rows[0]?.n ?? 0,
      tasks: tasks.rows,
      pendingDeliveries: pending.rows[0]?.n ?? 0,
    };
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export function databaseMetrics(registry: Registry, ownerPool: pg.Pool): void {
  // one read per scrape, shared by the gauges: prom-client collects them all at once, so each
  // one's collect() joins the read the first one started
  let inFlight: Promise<Snapshot | null> | undefined;
  const read = () =>
    (inFlight ??= readSnapshot(ownerPool)
      .catch(() => null)
      .finally(() => {
        inFlight = undefined;
      }));

  new Gauge({
    name: "swarf_database_up",
    help: "1 when this scrape could read the database within a second",
    registers: [registry],
    async collect() {
      this.set((await read()) ? 1 : 0);
    },
  });
  new Gauge({
    name: "swarf_queue_jobs",
    help: "Jobs in the queue per task: ready, scheduled (later), running, failed (no attempt left)",
    labelNames: ["task", "state"] as const,
    registers: [registry],
    async collect() {
      const snapshot = await read();
      if (!snapshot) return;
      this.reset();
      for (const row of snapshot.queue) {
        for (const state of ["ready", "scheduled", "running", "failed"] as const)
          this.set({ task: row.task_name, state }, row[state]);
      }
    },
  });
  new Gauge({
    name: "swarf_workers",
    help: "Worker processes holding a lease (ops.workers)",
    registers: [registry],
    async collect() {
      const snapshot = await read();
      if (snapshot) this.set(snapshot.workers);
    },
  });
  new Gauge({
    name: "swarf_tasks_active",
    help: "User-visible task records queued or running, per task",
    labelNames: ["task", "status"] as const,
    registers: [registry],
    async collect() {
      const snapshot = await read();
      if (!snapshot) return;
      this.reset();
      for (const row of snapshot.tasks) this.set({ task: row.task_name, status: row.status }, row.count);
    },
  });
  new Gauge({
    name: "swarf_webhook_deliveries_pending",
    help: "Webhook deliveries waiting for an attempt",
    registers: [registry],
    async collect() {
      const snapshot = await read();
      if (snapshot) this.set(snapshot.pendingDeliveries);
    },
  });
}
