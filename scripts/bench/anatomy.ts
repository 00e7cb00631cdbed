/**
 * One request's SQL round trips, one at a time on an idle system: the same calls the API
 * makes for GET /projects/{id} (the authenticator's key lookup is cached, so it is not one
 * of them), timed from this process over the app role's connection:
 *
 *   rate limit   app_public.rate_limit_hit (its own autocommit statement, on the pool)
 *   begin        pool checkout + `begin; select app_public.begin_request(...)`
 *   select       the project row under RLS
 *   commit       commit + release
 *
 * Next to it, the whole request through HTTP at one connection, ours and bare: the
 * difference between ours and bare less the SQL is what the API process itself adds.
 */
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import { parseApiKey } from "../../auth/api-key.ts";
import { authenticateKey } from "../../db/queries/api-keys.ts";
import { getProject } from "../../db/queries/projects.ts";
import { hitRateLimits } from "../../db/queries/rate-limits.ts";
import { createPool } from "../../db/pools.ts";
import { withRequestTransaction } from "../../db/request-transaction.ts";
import { percentile } from "./stats.ts";

export interface StepTiming {
  step: string;
  p50Ms: number;
  p99Ms: number;
}

export interface RequestAnatomy {
  iterations: number;
  steps: StepTiming[];
  /** sum of the steps' medians */
  sqlP50Ms: number;
  /** mean request time at one connection (1 / requests per second) */
  oursSerialMs: number;
  bareSerialMs: number;
  /** ours - bare - SQL: what the API process adds per request besides waiting for SQL */
  apiProcessMs: number;
}

export interface AnatomyOptions {
  appUrl: string;
  apiKey: string;
  projectId: string;
  rateLimitPerMinute: number;
  origins: { ours: string; bare: string };
  path: string;
  iterations: number;
  httpSeconds: number;
  signal: AbortSignal;
}

function serialMs(url: string, apiKey: string, seconds: number, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, connections: 1, duration: seconds, headers: { "x-api-key": apiKey } },
      (error: unknown, result: autocannon.Result) => {
        signal.removeEventListener("abort", stop);
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve(result.requests.total > 0 ? (result.duration * 1000) / result.requests.total : Number.NaN);
      },
    );
    const stop = () => instance.stop();
    signal.addEventListener("abort", stop, { once: true });
  });
}

export async function measureAnatomy(options: AnatomyOptions): Promise<RequestAnatomy> {
  const credential = parseApiKey(options.apiKey);
  if (!credential) throw new Error("the benchmark key does not parse");
  const pool = createPool(options.appUrl, 1, "swarf-bench-anatomy");
  const samples: Record<string, number[]> = { "rate limit": [], begin: [], select: [], commit: [] };
  try {
    const key = await authenticateKey(pool, credential.prefix, credential.hash);
    if (!key) throw new Error("the benchmark key does not authenticate");
    const buckets = [{ name: "default", limit: options.rateLimitPerMinute, windowSeconds: 60 }];
    for (let i = 0; i < options.iterations; i++) {
      options.signal.throwIfAborted();
      const t0 = performance.now();
      await hitRateLimits(pool, key.key_id, buckets, 1); // one hit: what a request costs without a lease
      const t1 = performance.now();
      let t2 = t1;
      let t3 = t1;
      await withRequestTransaction(pool, credential, ["projects:read"], async (db) => {
        t2 = performance.now();
        if (!(await getProject(db, options.projectId))) throw new Error("the benchmark project is not visible");
        t3 = performance.now();
      });
      const t4 = performance.now();
      samples["rate limit"]!.push(t1 - t0);
      samples.begin!.push(t2 - t1);
      samples.select!.push(t3 - t2);
      samples.commit!.push(t4 - t3);
    }
  } finally {
    await pool.end();
  }
  const steps = Object.entries(samples).map(([step, values]) => ({
    step,
    p50Ms: percentile(values, 50),
    p99Ms: percentile(values, 99),
  }));
  const sqlP50Ms = steps.reduce((sum, s) => sum + s.p50Ms, 0);
  const oursSerialMs = await serialMs(
    `${options.origins.ours}${options.path}`,
    options.apiKey,
    options.httpSeconds,
    options.signal,
  );
  await sleep(100, undefined, { signal: options.signal });
  const bareSerialMs = await serialMs(
    `${options.origins.bare}${options.path}`,
    options.apiKey,
    options.httpSeconds,
    options.signal,
  );
  return {
    iterations: options.iterations,
    steps,
    sqlP50Ms,
    oursSerialMs,
    bareSerialMs,
    apiProcessMs: oursSerialMs - bareSerialMs - sqlP50Ms,
  };
}
