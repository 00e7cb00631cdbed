/**
 * Every setting the service reads from its environment, parsed once. README.md lists them.
 */
import path from "node:path";
import { z } from "zod";

const integer = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

const EnvSchema = z
  .object({
    PORT: integer(8080),
    HOST: z.string().default("0.0.0.0"),
    /** Owner connection: migrations, workers and the CLI. Unset: an embedded cluster in SWARF_DATA_DIR. */
    DATABASE_URL: z.string().url().optional(),
    /** The API's connection as the non-superuser role. Unset: derived from DATABASE_URL (db/roles.ts). */
    APP_DATABASE_URL: z.string().url().optional(),
    APP_DB_ROLE: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/)
      .default("app_user"),
    SWARF_DATA_DIR: z.string().default(".data"),
    EMBEDDED_PG_PORT: integer(54329, 1),
    API_POOL_SIZE: integer(20, 1),
    WORKER_CONCURRENCY: integer(2, 1),
    RATE_LIMIT_PER_MINUTE: integer(120, 1),
    CAM_PLANNING_RATE_LIMIT_PER_HOUR: integer(30, 1),
    AUTH_CACHE_TTL_SECONDS: integer(60),
    /** how long an Idempotency-Key claim outlives its request's last renewal (a dead process's claim) */
    IDEMPOTENCY_CLAIM_LEASE_SECONDS: integer(30, 2),
    /** each statement of an /ops/graphql request is cancelled after this long */
    OPS_GRAPHQL_STATEMENT_TIMEOUT_MS: integer(5000, 100),
    /** /ops/graphql requests one API process runs at once; more wait up to 10 s, then 503 */
    OPS_GRAPHQL_CONCURRENCY: integer(2, 1),
    /** unknown or malformed keys one client address may send per window before it gets 429 */
    AUTH_FAILURES_PER_ADDRESS: integer(30, 1),
    AUTH_FAILURE_WINDOW_SECONDS: integer(300, 10),
    /** a web app session ends after this long without a request (docs/web-app.md) */
    SESSION_IDLE_MINUTES: integer(480, 1),
    /** and this long after it started, however busy */
    SESSION_MAX_DAYS: integer(7, 1),
    /** failed sign-ins one client address, or one account, may make per window before 429 */
    SIGN_IN_FAILURES_PER_ADDRESS: integer(20, 1),
    SIGN_IN_FAILURES_PER_ACCOUNT: integer(10, 1),
    /** failed sign-ins a device cookie may make before it is revoked (it is exempt from the account's limit) */
    SIGN_IN_FAILURES_PER_DEVICE: integer(5, 1),
    /** how long a device cookie lives; browsers cap cookies at 400 days */
    SIGN_IN_DEVICE_DAYS: z.coerce.number().int().min(1).max(400).default(90),
    /** at most an hour: the prune task keeps the last hour's counts (tasks/prune_rate_limit_slots.ts) */
    SIGN_IN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(10).max(3600).default(900),
    /**
     * Express's "trust proxy": which proxies' X-Forwarded-For to believe for the client address
     * (the failed-key throttle). false (default): the connection's address; a number of hops;
     * or addresses and subnets, e.g. "loopback, 10.0.0.0/8".
     */
    TRUST_PROXY: z.string().default("false"),
    /**
     * Where clients reach the API (scheme, host, optional path prefix): presigned URLs start with
     * it. Unset: taken from each request (its Host, or X-Forwarded-Proto/-Host from a trusted proxy).
     */
    PUBLIC_BASE_URL: z
      .url({ protocol: /^https?$/, error: "an absolute http(s) URL" })
      .refine(
        (value) => !/[?#]/.test(value) && !/^https?:\/\/[^/]*@/i.test(value),
        "an http(s) URL without query, fragment or credentials",
      )
      .transform((value) => {
        const url = new URL(value);
        return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
      })
      .optional(),
    /**
     * How long an idle keep-alive connection stays open; above the idle timeouts of the load
     * balancers in front (60 s for AWS ALB, nginx's upstream keepalive_timeout), which must close first.
     */
    HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: integer(65, 1),
    /** how long a client may take to send a request's headers; more than the keep-alive timeout */
    HTTP_HEADERS_TIMEOUT_SECONDS: integer(66, 1),
    /** how long a client may take to send a whole request, body included (an upload on a slow link) */
    HTTP_REQUEST_TIMEOUT_SECONDS: integer(300, 1),
    JSON_BODY_LIMIT_BYTES: integer(256 * 1024, 1024),
    /** the JSON body limit of the routes that take a whole equipment library (about 1.8 KB an assembly) */
    LIBRARY_BODY_LIMIT_BYTES: integer(4 * 1024 * 1024, 1024),
    /** Largest file a multipart upload may carry (workpiece, .famc job); larger ones get 413. */
    UPLOAD_LIMIT_BYTES: integer(100 * 1024 * 1024, 1024),
    /** warm geometry threads for uploads (about 0.6 GB each); unset: one per core, memory permitting; 0: none */
    GEOMETRY_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
    /**
     * how long an upload or re-mesh may wait for a geometry thread; then the upload answers 503
     * geometry_busy with Retry-After (the file was not processed) and a re-mesh task is retried
     */
    GEOMETRY_QUEUE_TIMEOUT_MS: integer(30_000, 100),
    /** a CAM plan simulates its operations on a thread beside its planning thread (two cores busy); false: in the planning thread */
    CAM_SIMULATION_THREAD: z
      .enum(["true", "false"])
      .default("true")
      .transform((v) => v === "true"),
    /** A worker whose lease is older than this is dead; its jobs run again elsewhere. */
    WORKER_LEASE_STALE_SECONDS: integer(30, 5),
    WORKER_HEARTBEAT_SECONDS: integer(5, 1),
    /**
     * SIGTERM: how long running jobs may go on before they are told to stop; a plan or re-mesh
     * then stops and goes back to the queue as a retry, short jobs just finish
     */
    WORKER_SHUTDOWN_GRACE_SECONDS: integer(10, 0),
    /** "production" requires https webhook URLs and refuses loopback receivers (unless configured below) */
    NODE_ENV: z.string().default("development"),
    /**
     * Address classes a webhook may be delivered to besides public ones, comma-separated:
     * loopback, private (RFC 1918, CGNAT, IPv6 ULA), link_local (169.254/16 with the cloud
     * metadata address, fe80::/10). Default: loopback outside production, none in production.
     */
    WEBHOOK_ALLOWED_ADDRESS_CLASSES: z
      .string()
      .regex(
        /^\s*((loopback|private|link_local)\s*(,\s*(loopback|private|link_local)\s*)*)?$/,
        "a comma-separated list of loopback, private, link_local",
      )
      .optional(),
    /** allow http:// webhook URLs in production (always allowed outside it) */
    WEBHOOK_ALLOW_HTTP: z
      .enum(["true", "false"])
      .default("false")
      .transform((v) => v === "true"),
    /** how long a webhook receiver has to answer */
    WEBHOOK_TIMEOUT_MS: integer(10_000, 100),
    /** set: GET /metrics (API and workers) needs `Authorization: Bearer <token>`; unset: open */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** a worker's own HTTP port for /healthz and /metrics (`npm run worker`); 0: any free port, logged */
    WORKER_HTTP_PORT: integer(8081),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  })
  .superRefine((env, ctx) => {
    // Node's own advice: a request's headers may arrive on a connection that was idle until then
    if (env.HTTP_HEADERS_TIMEOUT_SECONDS <= env.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS) {
      ctx.addIssue({
        code: "custom",
        path: ["HTTP_HEADERS_TIMEOUT_SECONDS"],
        message: `must be more than HTTP_KEEP_ALIVE_TIMEOUT_SECONDS (${env.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS})`,
      });
    }
    if (env.HTTP_REQUEST_TIMEOUT_SECONDS < env.HTTP_HEADERS_TIMEOUT_SECONDS) {
      ctx.addIssue({
        code: "custom",
        path: ["HTTP_REQUEST_TIMEOUT_SECONDS"],
        message: `must be at least HTTP_HEADERS_TIMEOUT_SECONDS (${env.HTTP_HEADERS_TIMEOUT_SECONDS})`,
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`invalid environment:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

export const repoRoot = path.resolve(import.meta.dirname, "..");

export function dataDir(env: Env): string {
  return path.resolve(repoRoot, env.SWARF_DATA_DIR);
}
