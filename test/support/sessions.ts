/** Signing test users in to the web app, as the sign-in page does. */
import assert from "node:assert/strict";
import type pg from "pg";
import { hashPassword } from "../../auth/password.ts";
import { SESSION_COOKIE } from "../../auth/session-token.ts";
import { APP_ROUTES_PATH } from "../../http/base-path.ts";
import { setPasswordHash } from "../../db/queries/sessions.ts";
import type { RequestOptions, TestApi, TestResponse } from "./api.ts";

export const TEST_PASSWORD = "correct horse battery";

export interface TestSession {
  /** the cookie's value */
  token: string;
  csrfToken: string;
  /** a request with the session cookie (and, with `csrf`, its token) */
  request<T = unknown>(
    method: string,
    path: string,
    options?: RequestOptions & { csrf?: boolean },
  ): Promise<TestResponse<T>>;
}

/** sets the user's password (ending the user's sessions, as the CLI does) */
export async function givePassword(owner: pg.Pool, userId: string, password = TEST_PASSWORD): Promise<void> {
  await setPasswordHash(owner, userId, await hashPassword(password));
}

/** the value of the session cookie a response sets; undefined when it sets none */
export function setCookieValue(res: TestResponse): string | undefined {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return line?.slice(SESSION_COOKIE.length + 1).split(";")[0];
}

export function withSession(api: TestApi, token: string, csrfToken: string): TestSession {
  return {
    token,
    csrfToken,
    request(method, path, options = {}) {
      const headers: Record<string, string> = { Cookie: `${SESSION_COOKIE}=${token}`, ...options.headers };
      if (options.csrf) headers["X-CSRF-Token"] = csrfToken;
      return api.request(method, path, { ...options, headers });
    },
  };
}

export async function signIn(api: TestApi, email: string, password = TEST_PASSWORD): Promise<TestSession> {
  const res = await api.request<{ csrf_token: string }>("POST", `${APP_ROUTES_PATH}/session`, {
    body: { email, password },
  });
  assert.equal(res.status, 200, res.text);
  const token = setCookieValue(res);
  assert.ok(token, "the sign-in sets the session cookie");
  return withSession(api, token, res.body.csrf_token);
}
