/**
 * One attempt of one delivery, as the deliver_webhook task runs it (owner connection):
 *
 *   1. read the delivery, its endpoint and the endpoint's valid secrets; nothing to do unless
 *      it is pending; a revoked or disabled endpoint cancels it
 *   2. hold back while an earlier event of the same task to the same endpoint is still
 *      pending (waiting for a retry): the job moves to just after that one's next attempt,
 *      so a receiver sees a task's events in order
 *   3. resolve the host and check every address (address-policy.ts), POST the stored body
 *      with the signature headers, wait at most the timeout
 *   4. record the attempt (app_private.record_webhook_attempt, one transaction): 2xx
 *      delivered; 4xx failed; 5xx, timeout, network error retried on the schedule
 *      (schedule.ts) by a new job at the next time; an address refused fails without retry
 *
 * The clock and the random source are injected (tests step through a day without sleeping).
 */
import http from "node:http";
import https from "node:https";
import {
  cancelDelivery,
  earlierPendingDelivery,
  enqueueDelivery,
  readDelivery,
  recordWebhookAttempt,
  type AttemptOutcome,
} from "../db/queries/webhook-attempts.ts";
import type { Queryable } from "../db/request-transaction.ts";
import { resolveWebhookTarget, WebhookUrlRefused, type WebhookPolicy } from "./address-policy.ts";
import { MAX_ATTEMPTS, nextAttemptAt } from "./schedule.ts";
import { signatureHeader } from "./signature.ts";

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  policy: WebhookPolicy;
}

export type SendResult = { statusCode: number; error: null } | { statusCode: null; error: string; retryable: boolean };

export interface DeliveryDeps {
  now(): Date;
  random(): number;
  send(request: SendRequest): Promise<SendResult>;
}

export const defaultDeliveryDeps: DeliveryDeps = { now: () => new Date(), random: Math.random, send: sendWebhook };

export type ProcessResult =
  | { kind: "skipped"; reason: string }
  | { kind: "held"; until: Date }
  | {
      kind: "attempted";
      attempt: number;
      outcome: AttemptOutcome | null;
      statusCode: number | null;
      error: string | null;
    };

export async function processDelivery(
  db: Queryable,
  deliveryId: string,
  policy: WebhookPolicy,
  deps: DeliveryDeps = defaultDeliveryDeps,
): Promise<ProcessResult> {
  const d = await readDelivery(db, deliveryId, deps.now());
  if (!d) return { kind: "skipped", reason: "no such delivery" };
  if (d.status !== "pending") return { kind: "skipped", reason: `the delivery is ${d.status}` };
  if (d.revoked || !d.enabled) {
    const reason = d.revoked ? "the endpoint was revoked" : "the endpoint is disabled";
    await cancelDelivery(db, deliveryId, reason, deps.now());
    return { kind: "skipped", reason };
  }

  const earlier = await earlierPendingDelivery(db, d);
  if (earlier !== undefined) {
    const now = deps.now();
    const after = earlier ?? now;
    const until = new Date(Math.max(after.getTime(), now.getTime()) + 1000);
    await enqueueDelivery(db, deliveryId, d.endpoint_id, until);
    return { kind: "held", until };
  }

  const attempt = d.attempts + 1;
  const attemptedAt = deps.now();
  const timestamp = Math.floor(attemptedAt.getTime() / 1000);
  const headers = {
    "Content-Type": "application/json",
    "User-Agent": "Swarf-Webhooks/1",
    "X-Service-Event-Type": d.event_type,
    "X-Service-Delivery-Id": d.id,
    "X-Service-Signature": signatureHeader(d.secrets ?? [], timestamp, d.body),
  };
  const started = performance.now();
  const sent = await deps.send({ url: d.url, headers, body: d.body, policy });
  const durationMs = Math.round(performance.now() - started);
  const statusCode = sent.statusCode;
  const retryable =
    statusCode === null ? (sent.error !== null && "retryable" in sent ? sent.retryable : true) : statusCode >= 500;
  const error =
    statusCode === null
      ? sent.error
      : statusCode >= 200 && statusCode < 300
        ? null
        : `the receiver answered ${statusCode}`;
  // the attempt's place in its round of six (a redelivery starts a new round)
  const inRound = attempt - (d.max_attempts - MAX_ATTEMPTS);
  const now = deps.now();
  const next = nextAttemptAt(inRound, now, deps.random);
  const outcome = await recordWebhookAttempt(db, deliveryId, {
    attempt,
    attemptedAt,
    statusCode,
    durationMs,
    error,
    retryable,
    next,
    now,
  });
  return { kind: "attempted", attempt, outcome, statusCode, error };
}

/** POSTs to a checked address of the URL's host, with the policy's timeout; never throws. */
export async function sendWebhook(request: SendRequest): Promise<SendResult> {
  let target: { url: URL; addresses: string[] };
  try {
    target = await resolveWebhookTarget(request.url, request.policy);
  } catch (error) {
    if (error instanceof WebhookUrlRefused)
      return { statusCode: null, error: `address refused: ${error.message}`, retryable: false };
    return {
      statusCode: null,
      error: `could not resolve the host: ${error instanceof Error ? error.message : String(error)}`,
      retryable: true,
    };
  }
  const { url, addresses } = target;
  const secure = url.protocol === "https:";
  const address = addresses[0]!;
  const body = Buffer.from(request.body, "utf8");
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const options: https.RequestOptions = {
      method: "POST",
      host: address,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers: { ...request.headers, Host: url.host, "Content-Length": String(body.length) },
      agent: false,
      ...(secure ? { servername: url.hostname.replace(/^\[|\]$/g, "") } : {}),
    };
    const req = (secure ? https : http).request(options, (res) => {
      res.on("data", () => {});
      res.on("end", () => finish({ statusCode: res.statusCode ?? 0, error: null }));
      res.on("error", () => finish({ statusCode: res.statusCode ?? 0, error: null }));
      res.resume();
    });
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `timed out after ${request.policy.timeoutMs} ms`, retryable: true });
      req.destroy();
    }, request.policy.timeoutMs);
    req.on("error", (error) => finish({ statusCode: null, error: `network error: ${error.message}`, retryable: true }));
    req.end(body);
  });
}
