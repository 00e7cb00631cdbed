/**
 * What the app routes need of the browser: the session and device cookies' attributes, and the
 * refusal of a sign-in posted from another site (login CSRF: a page elsewhere signing the
 * visitor in as someone else).
 */
import type { CookieOptions, Request, RequestHandler, Response } from "express";
import { type DEVICE_COOKIE, SESSION_COOKIE } from "../../auth/session-token.ts";
import { HttpError } from "../../http/errors/index.ts";
import { publicBaseUrl } from "../public-base-url.ts";

/** HttpOnly, SameSite=Lax, Path=/; Secure when the app is reached over https */
function cookieOptions(req: Request, configuredBaseUrl: string | undefined): CookieOptions {
  return {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: publicBaseUrl(req, configuredBaseUrl).startsWith("https:"),
  };
}

/**
 * The session cookie, or the device cookie, which outlives sign-outs and sessions: it says this
 * browser has signed in as its user (sign-in-devices.ts).
 */
export function setAppCookie(
  name: typeof SESSION_COOKIE | typeof DEVICE_COOKIE,
  req: Request,
  res: Response,
  cookie: { configuredBaseUrl: string | undefined; token: string; expires: Date },
): void {
  res.cookie(name, cookie.token, { ...cookieOptions(req, cookie.configuredBaseUrl), expires: cookie.expires });
}

export function clearSessionCookie(req: Request, res: Response, configuredBaseUrl: string | undefined): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req, configuredBaseUrl));
}

/**
 * 403 cross_site_request for a request whose Origin is not the app's own (or whose
 * Sec-Fetch-Site says cross-site). A request without either header (curl, a test) passes:
 * a browser always sends Origin with a POST.
 */
export function sameOriginOnly(configuredBaseUrl: string | undefined): RequestHandler {
  return (req, _res, next) => {
    const origin = req.get("origin");
    const own = new URL(publicBaseUrl(req, configuredBaseUrl)).origin;
    if ((origin !== undefined && origin !== own) || req.get("sec-fetch-site") === "cross-site") {
      throw new HttpError(403, "cross_site_request", "sign in from the Swarf web app itself, not from another site", {
        origin: origin ?? null,
      });
    }
    next();
  };
}

/** 415 for a request that is not application/json, with a body or without one */
export const jsonOnly: RequestHandler = (req, _res, next) => {
  if (!req.is("application/json")) {
    throw new HttpError(415, "unsupported_media_type", "send the body as application/json", {
      content_type: req.get("content-type") ?? null,
    });
  }
  next();
};
