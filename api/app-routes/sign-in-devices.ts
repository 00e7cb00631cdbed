/**
 * Device cookies, after OWASP's "Slow Down Online Guessing Attacks with Device Cookies"
 * (docs/web-app.md, "Throttling"). The per-account limit of failed sign-ins stops a guesser
 * spreading guesses over many addresses, but anyone who knows an email can keep it full and
 * lock the owner out. So a successful sign-in gives the browser a device cookie, a random token
 * bound to the user; a sign-in that sends a live one of the user it names is exempt from the
 * account's limit and has a small limit of its own, after which the token is revoked and the
 * browser is a stranger again.
 */
import type { Request, Response } from "express";
import { DEVICE_COOKIE, newToken, tokenHash } from "../../auth/session-token.ts";
import { claimSignInDevice, issueSignInDevice } from "../../db/queries/sign-in-devices.ts";
import { requestCookie } from "../middleware/auth/session.ts";
import type { ApiServices } from "../services.ts";
import { setAppCookie } from "./browser.ts";

/** the SHA-256 of the device cookie the request sent; null without a well-formed one */
export function sentDeviceHash(req: Request): Buffer | null {
  const cookie = requestCookie(req, DEVICE_COOKIE);
  return cookie === undefined ? null : tokenHash(cookie);
}

/**
 * Whether this sign-in as `email` comes from a browser that has signed in as that user, with
 * its device under its failure limit. The attempt counts against the device at once.
 */
export function trustedDevice(services: ApiServices, device: Buffer | null, email: string): Promise<boolean> {
  if (device === null) return Promise.resolve(false);
  return claimSignInDevice(services.pool, device, email, services.env.SIGN_IN_FAILURES_PER_DEVICE);
}

/** After a successful sign-in: a new device cookie for the user, replacing the one sent. */
export async function rememberDevice(
  req: Request,
  res: Response,
  services: ApiServices,
  userId: string,
): Promise<void> {
  const token = newToken();
  const validSeconds = services.env.SIGN_IN_DEVICE_DAYS * 86_400;
  await issueSignInDevice(services.pool, {
    userId,
    tokenHash: tokenHash(token)!,
    replacedHash: sentDeviceHash(req),
    validSeconds,
  });
  setAppCookie(DEVICE_COOKIE, req, res, {
    configuredBaseUrl: services.env.PUBLIC_BASE_URL,
    token,
    expires: new Date(Date.now() + validSeconds * 1000),
  });
}
