/**
 * The web app's session cookie as a request's credential, and the CSRF check that goes with it.
 *
 * No cache: every request reads the session row (app_public.authenticate_session), so a
 * session ended by signing out is refused at once by every API process. A cookie-authenticated
 * request with an unsafe method must send X-CSRF-Token equal to the session's token: a page of
 * another site can make the browser send the cookie, but cannot read the token.
 */
import type { Request } from "express";
import type pg from "pg";
import { SCOPES } from "../../../auth/scopes.ts";
import { SESSION_COOKIE, SESSION_CREDENTIAL_PREFIX, sameToken, tokenHash } from "../../../auth/session-token.ts";
import { authenticateSession } from "../../../db/queries/sessions.ts";
import { HttpError } from "../../../http/errors/index.ts";
import type { AuthenticatedKey } from "../../locals.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function notSignedIn(): HttpError {
  return new HttpError(401, "not_signed_in", "you are not signed in, or your session has ended: sign in again");
}

/** the named cookie's value as the request sent it; undefined when there is none */
export function requestCookie(req: Request, name: string): string | undefined {
  const header = req.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** the session cookie's value as the request sent it; undefined when there is none */
export function sessionCookie(req: Request): string | undefined {
  return requestCookie(req, SESSION_COOKIE);
}

/**
 * The session the cookie names, as a request identity with every scope of the public API;
 * 401 not_signed_in for an unknown, ended or expired session, 403 csrf_token_invalid for an
 * unsafe request without the session's CSRF token.
 */
export async function authenticateSessionCookie(
  pool: pg.Pool,
  req: Request,
  cookie: string,
): Promise<AuthenticatedKey> {
  const id = tokenHash(cookie);
  const session = id ? await authenticateSession(pool, id) : null;
  if (!id || !session) throw notSignedIn();
  if (!SAFE_METHODS.has(req.method)) {
    const sent = req.get("x-csrf-token");
    if (!sent || !sameToken(sent, session.csrf_token)) {
      throw new HttpError(
        403,
        "csrf_token_invalid",
        "a signed-in request that changes something must send the session's CSRF token in the X-CSRF-Token header",
      );
    }
  }
  return {
    credential: { prefix: SESSION_CREDENTIAL_PREFIX, hash: id },
    // rate limits count per user for sessions: all of a person's browser tabs share one bucket
    keyId: session.user_id,
    userId: session.user_id,
    scopes: SCOPES,
    session: { email: session.email, csrfToken: session.csrf_token },
  };
}
