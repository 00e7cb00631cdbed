/**
 * X-Service-Signature: `t=<unix seconds>,v1=<hex>`, v1 = HMAC-SHA256(secret, `<t>.<raw body>`).
 * During a secret rotation there is one v1 per valid secret (`t=…,v1=…,v1=…`).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function signatureOf(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

export function signatureHeader(secrets: readonly string[], timestamp: number, rawBody: string | Buffer): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signatureOf(secret, timestamp, rawBody)}`)].join(",");
}

export type VerifyResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: "malformed" | "timestamp_out_of_range" | "no_match" };

/** What a receiver does: parse, check the timestamp, compare each v1 in constant time. */
export function verifySignature(
  header: string | undefined,
  rawBody: string | Buffer,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): VerifyResult {
  if (!header) return { ok: false, reason: "malformed" };
  let timestamp: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=", 2);
    if (key === "t" && value && /^\d+$/.test(value)) timestamp = Number(value);
    if (key === "v1" && value && /^[0-9a-f]{64}$/.test(value)) candidates.push(value);
  }
  if (timestamp === null || candidates.length === 0) return { ok: false, reason: "malformed" };
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return { ok: false, reason: "timestamp_out_of_range" };
  const expected = Buffer.from(signatureOf(secret, timestamp, rawBody), "hex");
  let match = false;
  for (const candidate of candidates) match = timingSafeEqual(expected, Buffer.from(candidate, "hex")) || match;
  return match ? { ok: true, timestamp } : { ok: false, reason: "no_match" };
}
