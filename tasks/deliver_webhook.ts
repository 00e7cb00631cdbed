/**
 * deliver_webhook: one attempt of one webhook delivery (webhooks/delivery.ts). Small, no
 * geometry: it runs on every worker, or on small boxes of its own
 * (`npm run worker -- --tasks deliver_webhook,purge_project`). Retries are ours (a new job at
 * the next time of the schedule), not graphile-worker's: the job only throws on a fault of
 * ours (the database), which graphile-worker retries.
 */
import type { Task } from "graphile-worker";
import { z } from "zod";
import { readEnv } from "../config/env.ts";
import { webhookPolicyFrom, type WebhookPolicy } from "../webhooks/address-policy.ts";
import type { AttemptOutcome } from "../db/queries/webhook-attempts.ts";
import { defaultDeliveryDeps, processDelivery, type DeliveryDeps } from "../webhooks/delivery.ts";

const Payload = z.object({ delivery_id: z.uuid() });

/** told each attempt's recorded outcome (metrics/tasks.ts counts them) */
export type WebhookAttemptObserver = (outcome: AttemptOutcome | "not_recorded") => void;

export function deliverWebhookTask(
  policy: WebhookPolicy = webhookPolicyFrom(readEnv()),
  deps: DeliveryDeps = defaultDeliveryDeps,
  onAttempt: WebhookAttemptObserver = () => {},
): Task {
  return async (raw, helpers) => {
    const { delivery_id: deliveryId } = Payload.parse(raw);
    const result = await helpers.withPgClient((db) => processDelivery(db, deliveryId, policy, deps));
    if (result.kind === "attempted") {
      onAttempt(result.outcome ?? "not_recorded");
      helpers.logger.info(
        `webhook delivery ${deliveryId} attempt ${result.attempt}: ${result.outcome ?? "not recorded"} (${result.statusCode ?? result.error})`,
      );
    } else if (result.kind === "skipped") {
      helpers.logger.debug(`webhook delivery ${deliveryId}: ${result.reason}`);
    }
  };
}
