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

/** The file part of a multipart request (api/middleware/multipart), held in memory. */
export interface UploadedFile {
  field: string;
  /** as the client named it; null when it sent none */
  filename: string | null;
  contentType: string;
  size: number;
  bytes: Buffer;
}

/** What a route's `prepare` step gets: the validated request and short reads of its own. */
export interface PrepareInput<P, Q, B, Public extends boolean = false> {
  params: P;
  query: Q;
  body: B;
  /** null on a public route */
  auth: Public extends true ? null : AuthenticatedKey;
  file: UploadedFile | null;
  requestId: string;
  services: ApiServices;
  /** a short transaction with the request's identity, for cheap checks before slow work */
  read<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T>;
}

export interface HandlerContext<P, Q, B, Public extends boolean = false, Prep = unknown> {
  /** what the route's `prepare` step returned (undefined without one) */
  prepared: Prep;
  params: P;
  query: Q;
  body: B;
  /**
   * a client in the request's transaction, identity set for RLS; on a public route a read-only
   * transaction without identity (RLS shows nothing)
   */
  db: pg.PoolClient;
  /** null on a public route */
  auth: Public extends true ? null : AuthenticatedKey;
  /** the uploaded file on a route with `upload`; null on the others */
  file: UploadedFile | null;
  requestId: string;
  services: ApiServices;
  /** where clients reach this API, for absolute URLs (api/public-base-url.ts): `https://cam.example.com` */
  publicBaseUrl: string;
}

export interface RouteSpec<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  Public extends boolean = boolean,
  Prep = unknown,
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
  /**
   * Needs no key (declare no scopes): no authentication, scope check, per-key rate limit or
   * request identity. The handler reaches data only through SQL functions that check a proof
   * of their own, such as a presigned URL's signature.
   */
  public?: Public;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * "library": the body may be as large as LIBRARY_BODY_LIMIT_BYTES instead of
   * JSON_BODY_LIMIT_BYTES, for a whole equipment library (up to 1000 assemblies) in one request
   */
  bodyLimit?: "library";
  /** takes multipart/form-data with exactly this one file part (at most UPLOAD_LIMIT_BYTES) instead of a JSON body */
  upload?: { field: string; description: string };
  /** success responses by status */
  responses: Record<number, ResponseSpec>;
  /** error statuses this route can answer besides 400, 401, 403, 429 and 500 */
  errors?: readonly number[];
  /** the codes this route adds to an error status, for the OpenAPI document: {409: "workpiece_missing"} */
  errorCodes?: Partial<Record<number, string>>;
  /** honours the Idempotency-Key header */
  idempotent?: boolean;
  /** a rate-limit bucket of its own, counted besides the default one */
  rateLimit?: { bucket: string; limit: (services: ApiServices) => number; windowSeconds: number };
  deprecated?: Deprecation;
  /**
   * Work done before the request transaction opens, its result handed to the handler as
   * `prepared`: slow work that needs no database (tessellating an upload) must not hold a
   * pooled connection idle in a transaction. Runs after validation and the idempotency claim.
   */
  prepare?(input: PrepareInput<z.output<P>, z.output<Q>, z.output<B>, Public>): Promise<Prep>;
  // method syntax on purpose: a table of routes with different schemas stays assignable
  handler(ctx: HandlerContext<z.output<P>, z.output<Q>, z.output<B>, Public, Prep>): Promise<Reply>;
}

export function defineRoute<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  Public extends boolean = false,
  Prep = unknown,
>(route: RouteSpec<P, Q, B, Public, Prep>): RouteSpec<P, Q, B, Public, Prep> {
  return route;
}

/** /projects/{project_id} -> /projects/:project_id */
export function expressPath(path: string): string {
  return path.replace(/\{([a-z_]+)\}/g, ":$1");
}
