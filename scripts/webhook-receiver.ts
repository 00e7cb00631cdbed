/**
 * An example webhook receiver: verifies X-Service-Signature in constant time over the raw
 * body, rejects timestamps more than 300 s from now, dedupes on X-Service-Delivery-Id, and
 * answers 2xx only once it has accepted the event. Only node: built-ins, so it can be copied.
 *
 *   WEBHOOK_SECRET=whsec_… PORT=4000 node --import tsx scripts/webhook-receiver.ts
 *
 * docs/webhooks.md explains each step.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";

const TOLERANCE_SECONDS = 300;

/** true when one of the header's v1 signatures is HMAC-SHA256(secret, "<t>.<raw body>") and t is recent */
export function verify(
  header: string | undefined,
  rawBody: Buffer,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  let t: string | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.split("=", 2);
    if (key === "t") t = value;
    else if (key === "v1" && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(Buffer.from(value, "hex"));
  }
  if (!t || !/^\d+$/.test(t) || signatures.length === 0) return false;
  if (Math.abs(nowSeconds - Number(t)) > TOLERANCE_SECONDS) return false; // a replay, or a clock far off
  const expected = createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest();
  // every candidate is compared, each in constant time (during a secret rotation there are two)
  return signatures.map((s) => timingSafeEqual(s, expected)).includes(true);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error("set WEBHOOK_SECRET to the secret POST /webhooks answered");
  const seen = new Set<string>(); // use your database in earnest: a delivery is retried with the same id
  http
    .createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const raw = Buffer.concat(chunks); // verify the bytes as received, before parsing
        if (!verify(req.headers["x-service-signature"] as string | undefined, raw, secret)) {
          res.writeHead(400).end("bad signature");
          return;
        }
        const deliveryId = String(req.headers["x-service-delivery-id"]);
        if (!seen.has(deliveryId)) {
          seen.add(deliveryId);
          const event = JSON.parse(raw.toString("utf8")) as {
            type: string;
            data: { task_id: string; progress: number };
          };
          console.log(`${event.type} task ${event.data.task_id} progress ${event.data.progress}`);
        }
        res.writeHead(204).end();
      });
    })
    .listen(Number(process.env.PORT ?? 4000), () => console.log(`listening on ${process.env.PORT ?? 4000}`));
}
