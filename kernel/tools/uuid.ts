/**
 * UUIDs of library items: the check the API applies to client-supplied ones, and name-based
 * version 5 UUIDs (RFC 9562 §5.5) so that generated catalogue entries keep their ids when the
 * catalogue is generated again.
 */
import { createHash } from "node:crypto";
import { z } from "zod";

/**
 * An RFC 9562 UUID of versions 1 to 8 with the RFC variant. Unlike z.uuid() it refuses the nil
 * and max UUIDs: as an item's id they are placeholders, not ids.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const Uuid = z.string().regex(UUID_PATTERN, { error: "must be a UUID (RFC 9562, versions 1 to 8)" });

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID_PATTERN.test(value);
}

/** RFC 9562 appendix A: the namespace for URLs. */
export const NAMESPACE_URL = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";

function bytesOf(uuid: string): Buffer {
  if (!isUuid(uuid)) throw new Error(`not a UUID: ${uuid}`);
  return Buffer.from(uuid.replaceAll("-", ""), "hex");
}

function textOf(bytes: Buffer): string {
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The version 5 UUID of name in namespace: SHA-1 of namespace bytes then the UTF-8 name. */
export function uuidV5(namespace: string, name: string): string {
  const hash = createHash("sha1").update(bytesOf(namespace)).update(name, "utf8").digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return textOf(bytes);
}
