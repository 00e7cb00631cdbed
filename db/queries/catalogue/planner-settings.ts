/**
 * Planner settings of the search's statements, transaction-local, so that PostgreSQL runs the
 * plan the search chose for a tier.
 */
import type { Queryable } from "../../request-transaction.ts";

type PlanMode = "walk" | "index";

interface SavedSettings {
  seqscan: string;
  indexscan: string;
  bitmapscan: string;
  parallel: string;
}

/**
 * Planner settings of the search's statements, transaction-local. No parallel workers (the
 * statements are small, and the estimate's EXPLAIN must keep its branches in order). A walk
 * wants ordered index scans only: with bitmap scans allowed the planner may fetch and sort a
 * branch's whole range, since it cannot know that the walk stops at the k-th match. The index
 * pass wants bitmap scans only: with plain index scans or sequential scans allowed, a
 * condition the planner believes common is walked through the btree or the table. Changed
 * only when the next statement needs otherwise; what they were is put back at the end.
 */
export class PlannerSettings {
  private mode: PlanMode | null = null;
  private saved: SavedSettings | null = null;
  constructor(private readonly db: Queryable) {}

  /** No parallel workers from here on (the first call reads what the settings were). */
  async prepare(): Promise<void> {
    if (this.saved !== null) return;
    const { rows } = await this.db.query<SavedSettings>(
      `select current_setting('enable_seqscan') as seqscan, current_setting('enable_indexscan') as indexscan,
              current_setting('enable_bitmapscan') as bitmapscan, current_setting('max_parallel_workers_per_gather') as parallel,
              set_config('max_parallel_workers_per_gather', '0', true)`,
    );
    this.saved = rows[0]!;
  }

  async use(mode: PlanMode): Promise<void> {
    await this.prepare();
    if (mode === this.mode) return;
    const saved = this.saved!;
    const [indexscan, bitmapscan] = mode === "walk" ? [saved.indexscan, "off"] : ["off", saved.bitmapscan];
    await this.db.query(
      "select set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', $1, true), set_config('enable_bitmapscan', $2, true)",
      [indexscan, bitmapscan],
    );
    this.mode = mode;
  }

  /** Puts back what the settings were before the search. */
  async restore(): Promise<void> {
    if (this.saved === null) return;
    const saved = this.saved;
    await this.db.query(
      `select set_config('enable_seqscan', $1, true), set_config('enable_indexscan', $2, true),
              set_config('enable_bitmapscan', $3, true), set_config('max_parallel_workers_per_gather', $4, true)`,
      [saved.seqscan, saved.indexscan, saved.bitmapscan, saved.parallel],
    );
    this.saved = null;
    this.mode = null;
  }
}
