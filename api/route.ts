/**
 * A route of the public API, declared once: the router builds its middleware chain from it
 * and the OpenAPI document describes it from the same zod schemas.
 */
import type pg from "pg";
import type { z } from "zod";
import type { Scope } from "../auth/scopes.ts";
import type { AuthenticatedKey } from "./locals.ts";
import type { Deprecation } from "./middleware/deprecation/index.ts";
import type { Reply } from "./reply.ts";
import type { ApiServices } from "./services.ts";

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** default application/json */
  contentType?: string;
  headers?: Record<string, string>;
}

export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** a client in the request's transaction, identity set for RLS */
  db: pg.PoolClient;
  auth: AuthenticatedKey;
  requestId: string;
  services: ApiServices;
}

export interface RouteSpec<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
> {
  method: "get" | "post" | "patch" | "put" | "delete";
  /** OpenAPI form, below the base path: /projects/{project_id} */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** every one is required */
  scopes: readonly Scope[];
  params?: P;
  query?: Q;
  body?: B;
  /** success responses by status */
  responses: Record<number, ResponseSpec>;
  /** error statuses this route can answer besides 400, 401, 403, 429 and 500 */
  errors?: readonly number[];
  /** honours the Idempotency-Key header */
  idempotent?: boolean;
  /** a rate-limit bucket of its own, counted besides the default one */
  rateLimit?: { bucket: string; limit: (services: ApiServices) => number; windowSeconds: number };
  deprecated?: Deprecation;
  // method syntax on purpose: a table of routes with different schemas stays assignable
  handler(ctx: HandlerContext<z.output<P>, z.output<Q>, z.output<B>>): Promise<Reply>;
}

export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  route: RouteSpec<P, Q, B>,
): RouteSpec<P, Q, B> {
  return route;
}

/** /projects/{project_id} -> /projects/:project_id */
export function expressPath(path: string): string {
  return path.replace(/\{([a-z_]+)\}/g, ":$1");
}
