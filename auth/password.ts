/**
 * Passwords for the web app's sign-in: scrypt from node:crypto, N = 2^15, r = 8, p = 1 (32 MiB
 * a hash; measured 0.4 to 0.6 s on the shared 2-core machines at a load average of 10, on
 * libuv's thread pool, so the event loop keeps serving), a 16-byte random salt per hash,
 * 32-byte output.
 * Stored self-describing, `scrypt$32768$8$1$<salt base64>$<hash base64>`, so the parameters
 * can grow later while old hashes still verify with their own.
 *
 * An unknown email is verified against a dummy hash of the same parameters, so a sign-in
 * takes as long whether or not the account exists (no user enumeration by timing).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

export const PASSWORD_MIN_LENGTH = 10;
/** scrypt takes any length; a bound keeps a megabyte "password" from costing more than a hash */
export const PASSWORD_MAX_LENGTH = 1024;

const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** N = 2^15, r = 8 needs 32 MiB; node's default maxmem (32 MiB) is just short of it */
const MAX_MEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, length, { ...options, maxmem: MAX_MEM }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, HASH_BYTES, PARAMS);
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64"), hash.toString("base64")].join("$");
}

interface StoredHash {
  options: ScryptOptions;
  salt: Buffer;
  hash: Buffer;
}

function parseStored(stored: string): StoredHash | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (!N || !r || !p || !Number.isInteger(N) || !Number.isInteger(r) || !Number.isInteger(p)) return null;
  // a stored hash never asks for less than today's cost, nor for absurd memory
  if (N < 2 ** 14 || N > 2 ** 20 || r > 32 || p > 16) return null;
  const salt = Buffer.from(parts[4] ?? "", "base64");
  const hash = Buffer.from(parts[5] ?? "", "base64");
  if (salt.length < 16 || hash.length < 16) return null;
  return { options: { N, r, p }, salt, hash };
}

/** a hash of a password nobody has, for unknown emails and users without a password; made once */
let dummy: Promise<StoredHash | null> | undefined;

/** Makes the dummy hash now, so that no sign-in waits for it. */
export function preparePasswordChecks(): void {
  dummy ??= hashPassword(randomBytes(18).toString("base64")).then(parseStored);
}

/**
 * Whether the password matches the stored hash. `stored` null (no such user, no password set):
 * the dummy hash is checked instead and the answer is false, in about the same time.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parsed = stored === null ? null : parseStored(stored);
  preparePasswordChecks();
  const target = parsed ?? (await dummy);
  if (!target) return false;
  const candidate = await derive(password, target.salt, target.hash.length, target.options);
  return timingSafeEqual(candidate, target.hash) && parsed !== null;
}
