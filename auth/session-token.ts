/**
 * The web app's secrets: session cookies, device cookies, CSRF tokens and login-link tokens,
 * each 32 random bytes in base64url. Only a session's, a device's or a link's SHA-256 is stored; a fast hash is right for
 * a random 256-bit input (auth/api-key.ts argues the same for keys).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const SESSION_COOKIE = "swarf_session";
/** a browser that has signed in before (api/app-routes/sign-in-devices.ts) */
export const DEVICE_COOKIE = "swarf_device";
/** the credential prefix that names a session to SQL (begin_request): no key has it */
export const SESSION_CREDENTIAL_PREFIX = "session:";

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** the SHA-256 of a well-formed token; null for anything else */
export function tokenHash(token: string): Buffer | null {
  if (!TOKEN_PATTERN.test(token)) return null;
  return createHash("sha256").update(token, "utf8").digest();
}

/** constant-time comparison of a CSRF token sent with the session's own */
export function sameToken(sent: string, expected: string): boolean {
  const a = Buffer.from(sent, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}
