/**
 * Signing in and out of the web app (docs/web-app.md, "Sign-in and sessions"):
 *
 *   POST   /session       {email, password} -> 200 {user, csrf_token} and the session cookie
 *   POST   /session/link  {token} (a login link's, `cli user login-link`) -> the same
 *   GET    /session       -> 200 {user, csrf_token}, or 401 not_signed_in
 *   DELETE /session       (X-CSRF-Token) -> 204; the session row is gone, the cookie cleared
 *
 * Failed sign-ins are counted per client address and per account (the email as given, in any
 * letter case, whether or not it exists); either at its limit gets 429 before any password
 * is checked, except that a browser with a device cookie of that account is exempt from the
 * account's limit and has its own (sign-in-devices.ts). A successful sign-in sets the device
 * cookie. Wrong email and wrong password get the same answer in about the same time.
 */
import type { Request, Response } from "express";
import { z } from "zod";
import { PASSWORD_MAX_LENGTH, verifyPassword } from "../../auth/password.ts";
import { newToken, SESSION_COOKIE, tokenHash } from "../../auth/session-token.ts";
import type { Env } from "../../config/env.ts";
import {
  endSession,
  redeemLoginLink,
  signInCredentials,
  startSession,
  type SessionLifetime,
} from "../../db/queries/sessions.ts";
import {
  type Blocked,
  recordSignInFailure,
  signInBlocked,
  type SignInLimit,
} from "../../db/queries/sign-in-failures.ts";
import { HttpError, rateLimitExceeded } from "../../http/errors/index.ts";
import type { AuthenticatedKey } from "../locals.ts";
import type { ApiServices } from "../services.ts";
import { clearSessionCookie, setAppCookie } from "./browser.ts";
import { rememberDevice, sentDeviceHash, trustedDevice } from "./sign-in-devices.ts";

export const SignInBody = z.strictObject({
  email: z.string().min(1).max(320),
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});

export const LinkBody = z.strictObject({ token: z.string().min(1).max(200) });

function lifetime(env: Env): SessionLifetime {
  return { idleSeconds: env.SESSION_IDLE_MINUTES * 60, maxSeconds: env.SESSION_MAX_DAYS * 86_400 };
}

function signedIn(user: { id: string; email: string }, csrfToken: string) {
  return { user: { id: user.id, email: user.email }, csrf_token: csrfToken };
}

function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/** 429 for the longest of the blocks, if any */
function refuseWhenBlocked(services: ApiServices, limits: readonly SignInLimit[], blocked: readonly Blocked[]): void {
  const window = services.env.SIGN_IN_FAILURE_WINDOW_SECONDS;
  const longest = blocked.reduce<Blocked | undefined>(
    (a, b) => (a && a.retry_after_seconds >= b.retry_after_seconds ? a : b),
    undefined,
  );
  if (!longest) return;
  const limit = limits.find((l) => l.subject === longest.subject)?.limit ?? 0;
  const byAccount = longest.subject.startsWith("account:");
  throw rateLimitExceeded(
    `too many failed sign-ins ${byAccount ? "for this account" : "from this address"}: ${limit} per ${window} s; ` +
      `try again in ${longest.retry_after_seconds} s`,
    {
      retryAfterSeconds: longest.retry_after_seconds,
      limit,
      windowSeconds: window,
      bucket: byAccount ? "failed_sign_ins_per_account" : "failed_sign_ins_per_address",
    },
  );
}

async function begin(
  req: Request,
  res: Response,
  services: ApiServices,
  start: (id: Buffer, csrfToken: string) => Promise<{ id: string; email: string } | null>,
): Promise<{ id: string; email: string } | null> {
  const cookie = newToken();
  const csrfToken = newToken();
  const user = await start(tokenHash(cookie)!, csrfToken);
  if (!user) return null;
  await rememberDevice(req, res, services, user.id);
  const expires = new Date(Date.now() + lifetime(services.env).maxSeconds * 1000);
  setAppCookie(SESSION_COOKIE, req, res, { configuredBaseUrl: services.env.PUBLIC_BASE_URL, token: cookie, expires });
  res.status(200).json(signedIn(user, csrfToken));
  return user;
}

export async function signIn(req: Request, res: Response, services: ApiServices): Promise<void> {
  const { email, password } = SignInBody.parse(res.locals.input?.body);
  const { env, pool } = services;
  const address: SignInLimit = { subject: `address:${clientAddress(req)}`, limit: env.SIGN_IN_FAILURES_PER_ADDRESS };
  const account: SignInLimit = {
    subject: `account:${email.trim().toLowerCase()}`,
    limit: env.SIGN_IN_FAILURES_PER_ACCOUNT,
  };
  const limits = [address, account];
  const device = sentDeviceHash(req);
  const blocked = await signInBlocked(pool, limits, env.SIGN_IN_FAILURE_WINDOW_SECONDS);
  // the address's limit holds for every browser, and is checked before the device's attempt
  // is counted: a blocked answer checks no password, so it must not use up the device's
  if (blocked.some((b) => b.subject === address.subject)) {
    refuseWhenBlocked(services, limits, device ? blocked.filter((b) => b.subject === address.subject) : blocked);
  }
  // the same queries run whether or not the device cookie is the user's (or any user's is)
  const trusted = await trustedDevice(services, device, email.trim());
  if (!trusted) refuseWhenBlocked(services, limits, blocked);
  const credentials = await signInCredentials(pool, email.trim());
  const matches = await verifyPassword(password, credentials?.password_hash ?? null);
  const started =
    matches && credentials
      ? await begin(req, res, services, async (id, csrfToken) => {
          await startSession(pool, { userId: credentials.user_id, id, csrfToken, ...lifetime(env) });
          return { id: credentials.user_id, email: credentials.email };
        })
      : null;
  if (started) return;
  // a trusted device's failures count against the device (already) and the address, not the account
  await recordSignInFailure(
    pool,
    (trusted ? [address] : limits).map((l) => l.subject),
    env.SIGN_IN_FAILURE_WINDOW_SECONDS,
  );
  throw new HttpError(401, "sign_in_failed", "Email or password is wrong.");
}

export async function signInWithLink(req: Request, res: Response, services: ApiServices): Promise<void> {
  const { token } = LinkBody.parse(res.locals.input?.body);
  const { env, pool } = services;
  const limits: SignInLimit[] = [{ subject: `address:${clientAddress(req)}`, limit: env.SIGN_IN_FAILURES_PER_ADDRESS }];
  refuseWhenBlocked(services, limits, await signInBlocked(pool, limits, env.SIGN_IN_FAILURE_WINDOW_SECONDS));
  const hash = tokenHash(token);
  const started = hash
    ? await begin(req, res, services, async (id, csrfToken) => {
        const user = await redeemLoginLink(pool, { tokenHash: hash, sessionId: id, csrfToken, ...lifetime(env) });
        return user ? { id: user.user_id, email: user.email } : null;
      })
    : null;
  if (started) return;
  await recordSignInFailure(
    pool,
    limits.map((l) => l.subject),
    env.SIGN_IN_FAILURE_WINDOW_SECONDS,
  );
  throw new HttpError(
    401,
    "sign_in_link_invalid",
    "This sign-in link has expired, has been used already or is not known: ask for a new link.",
  );
}

export function currentSession(res: Response, auth: AuthenticatedKey): void {
  if (!auth.session) throw new Error("currentSession needs a session");
  res.status(200).json(signedIn({ id: auth.userId, email: auth.session.email }, auth.session.csrfToken));
}

export async function signOut(
  req: Request,
  res: Response,
  services: ApiServices,
  auth: AuthenticatedKey,
): Promise<void> {
  await endSession(services.pool, auth.credential.hash);
  clearSessionCookie(req, res, services.env.PUBLIC_BASE_URL);
  res.status(204).end();
}
