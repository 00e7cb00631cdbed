/** prune_rate_limit_slots (cron, every 10 minutes): drops counters older than the longest window. */
import type { Task } from "graphile-worker";
import { pruneRateLimitSlots } from "../db/queries/rate-limits.ts";

const LONGEST_WINDOW_SECONDS = 3600;

export const pruneRateLimitSlotsTask: Task = async (_payload, helpers) => {
  await helpers.withPgClient((db) => pruneRateLimitSlots(db, LONGEST_WINDOW_SECONDS));
};
