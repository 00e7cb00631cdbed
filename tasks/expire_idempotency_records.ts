/** expire_idempotency_records (cron, hourly): drops records past their 24 hours. */
import type { Task } from "graphile-worker";
import { expireIdempotencyRecords } from "../db/queries/idempotency.ts";

export const expireIdempotencyRecordsTask: Task = async (_payload, helpers) => {
  const expired = await helpers.withPgClient((db) => expireIdempotencyRecords(db));
  if (expired > 0) helpers.logger.info(`expired ${expired} idempotency records`);
};
