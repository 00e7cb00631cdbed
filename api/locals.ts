/**
 * What the middleware leave on res.locals for the ones after them.
 */
import type { KeyCredential } from "../db/request-transaction.ts";

export interface AuthenticatedKey {
  credential: KeyCredential;
  keyId: string;
  userId: string;
  scopes: readonly string[];
  /** set when a web app session (the cookie) authenticated the request, not a key */
  session?: { email: string; csrfToken: string };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      requestId: string;
      auth?: AuthenticatedKey;
      /** the matched route's template with its base path, /backend-api/…/projects/{project_id} (metrics) */
      route?: string;
    }
  }
}
