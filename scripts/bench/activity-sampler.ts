/**
 * Samples pg_stat_activity for the API pool's backends while a load run goes on: where the
 * database connections spend their time. Roughly:
 *
 *   active             executing a statement (on CPU unless a wait event is shown)
 *   active Lock/...    waiting for a lock: transactionid/tuple = a busy key's rate-limit
 *                      slot row
 *   idle in transaction inside a request transaction, waiting for the API process to send
 *                      the next statement (API event loop, network, or both)
 *   idle               in the pool, unused
 */
import type pg from "pg";

export interface ActivitySummary {
  samples: number;
  /** mean number of the pool's connections seen per sample */
  meanConnections: number;
  /** share of connection-samples (0..1) per state, largest first */
  shares: { state: string; share: number }[];
}

interface ActivityRow {
  state: string | null;
  wait_event_type: string | null;
  wait_event: string | null;
}

function label(row: ActivityRow): string {
  const state = row.state ?? "unknown";
  if (state === "active" && row.wait_event_type) return `active ${row.wait_event_type}/${row.wait_event ?? "?"}`;
  if (state === "active") return "active (running)";
  return state;
}

export function startActivitySampler(
  pool: pg.Pool,
  applicationName: string,
  intervalMs = 50,
): { stop(): Promise<ActivitySummary> } {
  const counts = new Map<string, number>();
  let samples = 0;
  let connections = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      try {
        const { rows } = await pool.query<ActivityRow>(
          "select state, wait_event_type, wait_event from pg_stat_activity where application_name = $1",
          [applicationName],
        );
        samples += 1;
        connections += rows.length;
        for (const row of rows) counts.set(label(row), (counts.get(label(row)) ?? 0) + 1);
      } catch {
        // a failed sample is just missing
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, intervalMs - (Date.now() - started))));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      return {
        samples,
        meanConnections: samples > 0 ? connections / samples : 0,
        shares: [...counts.entries()]
          .map(([state, count]) => ({ state, share: total > 0 ? count / total : 0 }))
          .sort((a, b) => b.share - a.share),
      };
    },
  };
}

/** Merges the summaries of several runs, weighting each by its connection-samples. */
export function mergeActivity(summaries: readonly ActivitySummary[]): ActivitySummary {
  const weighted = new Map<string, number>();
  let samples = 0;
  let connections = 0;
  for (const s of summaries) {
    samples += s.samples;
    connections += s.meanConnections * s.samples;
    for (const { state, share } of s.shares) {
      weighted.set(state, (weighted.get(state) ?? 0) + share * s.meanConnections * s.samples);
    }
  }
  return {
    samples,
    meanConnections: samples > 0 ? connections / samples : 0,
    shares: [...weighted.entries()]
      .map(([state, w]) => ({ state, share: connections > 0 ? w / connections : 0 }))
      .sort((a, b) => b.share - a.share),
  };
}

/** The backend pids of the API pool's connections right now. */
export async function backendPids(pool: pg.Pool, applicationName: string): Promise<number[]> {
  const { rows } = await pool.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1", [
    applicationName,
  ]);
  return rows.map((row) => row.pid);
}
