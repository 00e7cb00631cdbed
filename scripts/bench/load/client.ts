/**
 * A virtual client of `npm run bench:load`: one API key (or none, for GET /healthz), its
 * requests paced at a fixed interval with at most `inFlight` at once, and well behaved on a
 * 429 as the spec asks (Limits, rule 2): the key sends nothing new until Retry-After has
 * passed, and the refused request is sent again after it, with exponential backoff and jitter
 * on a repeated refusal. Every attempt is one Sample, timed from the call to fetch to the last
 * byte of the body.
 */
import { API_BASE_PATH } from "../../../http/base-path.ts";

export type Phase = "setup" | "warmup" | "baseline" | "mix";

/** One request as the mix means it. */
export interface Call {
  /** the route's template, "GET /projects/{project_id}": what the report groups by */
  route: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** below the API's base path, query string included; or from the root with `root` */
  path: string;
  root?: boolean;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** the statuses the client asks for: anything else but a 429 is unexpected */
  expect: readonly number[];
  /** the rate-limit buckets an admitted request counts in ([] for a route without a key) */
  buckets: readonly string[];
}

export type Outcome = "ok" | "limited" | "unexpected";

export interface Sample {
  phase: Phase;
  route: string;
  /** the client's index; -1 for requests without a key */
  client: number;
  /** ms since the run's origin (performance.now()) when fetch was called, and when the body had arrived */
  sentAt: number;
  doneAt: number;
  /** null: no answer (a network error or a timeout) */
  status: number | null;
  outcome: Outcome;
  buckets: readonly string[];
  /** 429: the bucket its body names, and the seconds to wait */
  bucket?: string;
  retryAfterSeconds?: number;
  /** unexpected: the request and what came back */
  problem?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** What a 429 must look like (spec, Errors and Limits): checked, not assumed. */
export interface Limits {
  /** bucket -> requests per window */
  perBucket: Record<string, { limit: number; windowSeconds: number }>;
}

const REQUEST_TIMEOUT_MS = 120_000;
/** a request refused this many times in a row is given up (and counted as such) */
const MAX_ATTEMPTS = 6;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

interface ErrorBody {
  detail?: { code?: string; message?: string; details?: { retry_after_seconds?: number; bucket?: string } };
}

/** Reasons a 429 is malformed, or null when it is as the spec says. */
function checkLimited(
  answer: Answer,
  call: Call,
  limits: Limits,
): { problem: string | null; bucket?: string; retryAfter: number } {
  const header = answer.headers.get("retry-after");
  const retryAfter = header !== null && /^\d+$/.test(header) ? Number(header) : Number.NaN;
  let body: ErrorBody;
  try {
    body = JSON.parse(answer.text) as ErrorBody;
  } catch {
    return { problem: "429 without a JSON error body", retryAfter: Number.isFinite(retryAfter) ? retryAfter : 1 };
  }
  const detail = body.detail;
  const bucket = detail?.details?.bucket;
  const wait = Number.isFinite(retryAfter) ? retryAfter : 1;
  const issues: string[] = [];
  if (detail?.code !== "validation_error") issues.push(`code ${String(detail?.code)}`);
  if (!Number.isFinite(retryAfter) || retryAfter < 1) issues.push(`Retry-After ${String(header)}`);
  if (detail?.details?.retry_after_seconds !== retryAfter)
    issues.push(`details.retry_after_seconds ${String(detail?.details?.retry_after_seconds)} is not Retry-After`);
  if (!bucket || !call.buckets.includes(bucket))
    issues.push(`bucket ${String(bucket)} is not one this route counts in`);
  else {
    const limit = limits.perBucket[bucket]?.limit;
    if (limit === undefined || !detail?.message?.includes(`${limit} requests per`))
      issues.push(`message "${String(detail?.message)}" does not name the limit`);
  }
  return issues.length > 0
    ? { problem: `malformed 429: ${issues.join("; ")}`, ...(bucket ? { bucket } : {}), retryAfter: wait }
    : { problem: null, bucket: bucket!, retryAfter: wait };
}

export interface ClientOptions {
  index: number;
  apiKey: string | null;
  origin: string;
  limits: Limits;
  /** run origin for the timestamps */
  t0: number;
  record(sample: Sample): void;
  rng(): number;
}

export class Client {
  /** nothing new is sent before this (performance.now() ms): a 429's Retry-After */
  pausedUntil = 0;
  /** requests refused MAX_ATTEMPTS times in a row */
  gaveUp = 0;
  /** requests refused whose retry would have fallen after the phase's end */
  cutShort = 0;
  readonly index: number;
  private readonly options: ClientOptions;

  constructor(options: ClientOptions) {
    this.options = options;
    this.index = options.index;
  }

  /**
   * Sends the call until it is answered other than 429 (or given up): the answer when it is one
   * the call expects, else null (the sample says what went wrong). Retries only before `until`.
   */
  async send(call: Call, phase: Phase, until: number): Promise<Answer | null> {
    for (let attempt = 1; ; attempt++) {
      const { answer, sample } = await this.once(call, phase);
      this.options.record(sample);
      if (sample.outcome !== "limited" || !answer) return sample.outcome === "ok" ? answer : null;
      // wait as told (every request of this key), then retry this one with backoff and jitter
      const retryAfterMs = (sample.retryAfterSeconds ?? 1) * 1000;
      const now = performance.now();
      this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
      const backoff = retryAfterMs + 250 * 2 ** (attempt - 1) * this.options.rng();
      if (attempt >= MAX_ATTEMPTS || now + backoff >= until) {
        if (attempt >= MAX_ATTEMPTS) this.gaveUp += 1;
        else this.cutShort += 1;
        return null;
      }
      await sleep(backoff);
    }
  }

  private async once(call: Call, phase: Phase): Promise<{ answer: Answer | null; sample: Sample }> {
    const { origin, apiKey, t0 } = this.options;
    const url = `${origin}${call.root ? "" : API_BASE_PATH}${call.path}`;
    const headers: Record<string, string> = { ...(apiKey ? { "X-API-Key": apiKey } : {}), ...call.headers };
    const base = { phase, route: call.route, client: this.index, buckets: call.buckets };
    const started = performance.now();
    let answer: Answer;
    try {
      const response = await fetch(url, {
        method: call.method,
        headers,
        ...(call.body !== undefined ? { body: call.body } : {}),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      answer = { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      const done = performance.now();
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
      return {
        answer: null,
        sample: {
          ...base,
          sentAt: started - t0,
          doneAt: done - t0,
          status: null,
          outcome: "unexpected",
          problem: `${call.method} ${call.path}: no answer after ${(done - started).toFixed(0)} ms: ${String(error)}${cause}`,
        },
      };
    }
    const done = performance.now();
    const timing = { sentAt: started - t0, doneAt: done - t0, status: answer.status };
    if (answer.status === 429) {
      const checked = checkLimited(answer, call, this.options.limits);
      const sample: Sample = {
        ...base,
        ...timing,
        outcome: checked.problem ? "unexpected" : "limited",
        retryAfterSeconds: checked.retryAfter,
        ...(checked.bucket ? { bucket: checked.bucket } : {}),
        ...(checked.problem
          ? { problem: `${call.method} ${call.path}: ${checked.problem}: ${answer.text.slice(0, 300)}` }
          : {}),
      };
      return { answer, sample };
    }
    if (call.expect.includes(answer.status)) return { answer, sample: { ...base, ...timing, outcome: "ok" } };
    return {
      answer,
      sample: {
        ...base,
        ...timing,
        outcome: "unexpected",
        problem: `${call.method} ${call.path}${describeBody(call)}: ${answer.status} (expected ${call.expect.join(" or ")}): ${answer.text.slice(0, 400)}`,
      },
    };
  }

  /** Records a problem the client found in an answer it asked for (a replay that differs, a body it cannot read). */
  flag(call: Call, phase: Phase, problem: string): void {
    const now = performance.now() - this.options.t0;
    this.options.record({
      phase,
      route: call.route,
      client: this.index,
      sentAt: now,
      doneAt: now,
      status: null,
      outcome: "unexpected",
      buckets: [],
      problem: `${call.method} ${call.path}: ${problem}`,
    });
  }
}

function describeBody(call: Call): string {
  if (call.body === undefined) return "";
  if (typeof call.body === "string") return ` ${call.body.slice(0, 200)}`;
  return ` (${call.body.length} byte body)`;
}

/**
 * Runs `step` every `intervalMs` from now until `until` (performance.now() ms), at most
 * `inFlight` at once, never before the client's pause ends. A client that falls behind (all its
 * requests in flight, or paused) does not catch up in a burst: its next step is due an interval
 * after it could send. Resolves once every step begun has ended.
 */
export async function runPaced(options: {
  client: Client;
  intervalMs: number;
  inFlight: number;
  until: number;
  signal: AbortSignal;
  rng(): number;
  /** must not reject: it records its own failures */
  step(): Promise<void>;
}): Promise<void> {
  const { client, intervalMs, inFlight, until, signal } = options;
  const running = new Set<Promise<void>>();
  // spread the clients' first requests over the first interval
  let due = performance.now() + options.rng() * intervalMs;
  for (;;) {
    await sleep(Math.max(due, client.pausedUntil) - performance.now());
    if (running.size >= inFlight) await Promise.race(running);
    if (client.pausedUntil > performance.now()) continue;
    const now = performance.now();
    if (now >= until || signal.aborted) break;
    const step: Promise<void> = options.step().finally(() => running.delete(step));
    running.add(step);
    // on time (or a timer's few ms late): keep the schedule; later than an interval: start anew
    due = now - due > intervalMs ? now + intervalMs : due + intervalMs;
  }
  await Promise.all(running);
}
