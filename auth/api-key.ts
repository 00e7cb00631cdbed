/**
 * API keys: `<key_prefix>_live_<40 base32 characters>`.
 *
 * The prefix (`sw` + 8 base32 characters) is unique per key: it is what the key list shows
 * and what a lookup starts from. The secret part carries 200 bits from the CSPRNG. Only the
 * SHA-256 of the whole plaintext is stored; a fast hash is right here because the input is
 * random, not a password.
 */
import { createHash, randomBytes } from "node:crypto";
import type { KeyCredential } from "../db/request-transaction.ts";

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
const KEY_PATTERN = /^([a-z2-7]{4,32})_live_([A-Z2-7]{40})$/;

function randomBase32(length: number): string {
  // 256 is a multiple of 32, so byte % 32 is uniform
  return Array.from(randomBytes(length), (byte) => BASE32[byte % 32]).join("");
}

export interface NewApiKey {
  plaintext: string;
  prefix: string;
  hash: Buffer;
}

export function generateApiKey(): NewApiKey {
  const prefix = `sw${randomBase32(8)}`;
  const plaintext = `${prefix}_live_${randomBase32(40).toUpperCase()}`;
  return { plaintext, prefix, hash: hashApiKey(plaintext) };
}

function hashApiKey(plaintext: string): Buffer {
  return createHash("sha256").update(plaintext, "utf8").digest();
}

/** The credential a well-formed key stands for, or null for anything malformed. */
export function parseApiKey(value: string): KeyCredential | null {
  const match = KEY_PATTERN.exec(value);
  if (!match?.[1]) return null;
  return { prefix: match[1], hash: hashApiKey(value) };
}

export const KEY_PREFIX_PATTERN = /^[a-z2-7]{4,32}$/;
