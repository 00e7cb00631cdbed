/**
 * `npm run bench:web`: what the web app costs a browser.
 *
 * 1. The JavaScript shipped, gzipped (issue 38's budget: 300 KB).
 * 2. Time to interactive of the projects page for a user with 200 projects, in headless
 *    Debian Chromium (/usr/bin/chromium) against the real API on an embedded PostgreSQL (or
 *    DATABASE_URL's server), signed in with a session cookie, cache empty on every run. The
 *    page counts as interactive when its heading is rendered, the network has been quiet for
 *    500 ms, and no long task (over 50 ms on the main thread) is running: the time reported is
 *    the latest of the last request's end, the last long task's end and DOMContentLoaded,
 *    from navigation start (the budget: 2 s). Median and worst of RUNS runs.
 */
import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromium } from "playwright-core";
import { createApp } from "../../../api/app.ts";
import { hashPassword } from "../../../auth/password.ts";
import { SESSION_COOKIE } from "../../../auth/session-token.ts";
import { readEnv, repoRoot } from "../../../config/env.ts";
import { setPasswordHash } from "../../../db/queries/sessions.ts";
import { createUser } from "../../../db/queries/users.ts";
import { createPool } from "../../../db/pools.ts";
import { createHttpServer } from "../../../http/http-server.ts";
import { provisionDatabase } from "../database.ts";
import { measureBundle } from "./bundle.ts";
import pg from "pg";

const PROJECTS = 200;
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 7);
const JS_BUDGET_BYTES = 300 * 1024;
const TTI_BUDGET_MS = 2000;
const PASSWORD = "bench password 1234";
const CHROMIUM = process.env.SWARF_CHROMIUM ?? "/usr/bin/chromium";

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;
}

/** in the page: the moment it became interactive, by the definition above */
const INTERACTIVE_AT = `new Promise((resolve) => {
  const longTasks = [];
  try {
    new PerformanceObserver((list) => longTasks.push(...list.getEntries())).observe({ type: "longtask", buffered: true });
  } catch {}
  setTimeout(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    const ends = [nav ? nav.domContentLoadedEventEnd : 0];
    for (const entry of performance.getEntriesByType("resource")) ends.push(entry.responseEnd);
    for (const task of longTasks) ends.push(task.startTime + task.duration);
    resolve({ interactiveMs: Math.max(...ends), requests: performance.getEntriesByType("resource").length });
  }, 0);
})`;

export async function main(): Promise<number> {
  const bundle = measureBundle(path.join(repoRoot, "web", "dist"));
  log(`JS shipped: ${bundle.files.length} files, ${(bundle.totalGzipBytes / 1024).toFixed(1)} KB gzipped`);

  // the 200 projects are made at full speed: no rate limit in the way
  const env = readEnv({ ...process.env, RATE_LIMIT_PER_MINUTE: "1000000" });
  const database = await provisionDatabase(env, log);
  const pool = createPool(database.appUrl, 10, "swarf-bench-web");
  const owner = new pg.Client({ connectionString: database.ownerUrl });
  const server = createHttpServer(createApp({ services: { pool, env }, health: () => ({}) }), env);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  try {
    await owner.connect();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const user = await createUser(owner, "bench-web@example.com", { starterLibrary: false });
    await setPasswordHash(owner, user.id, await hashPassword(PASSWORD));
    const signIn = await fetch(`${origin}/backend-api/api/app/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "bench-web@example.com", password: PASSWORD }),
    });
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
    const cookie = signIn.headers
      .getSetCookie()
      .find((line) => line.startsWith(`${SESSION_COOKIE}=`))
      ?.split(";")[0]
      ?.slice(SESSION_COOKIE.length + 1);
    const { csrf_token: csrf } = (await signIn.json()) as { csrf_token: string };
    if (!cookie) throw new Error("the sign-in set no session cookie");
    log(`making ${PROJECTS} projects through the public API`);
    for (let i = 0; i < PROJECTS; i++) {
      const made = await fetch(`${origin}/backend-api/api/public/v1/projects`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Cookie: `${SESSION_COOKIE}=${cookie}`,
          "X-CSRF-Token": csrf,
        },
        body: JSON.stringify({ name: `Bracket ${i + 1}`, customer: `Customer ${i % 17}` }),
      });
      if (made.status !== 201) throw new Error(`POST /projects answered ${made.status}: ${await made.text()}`);
    }

    const times: number[] = [];
    let requests = 0;
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addCookies([{ name: SESSION_COOKIE, value: cookie, url: origin, httpOnly: true, sameSite: "Lax" }]);
      const page = await context.newPage();
      await page.goto(`${origin}/projects`);
      await page.getByRole("heading", { level: 1, name: "Projects" }).waitFor();
      await page.waitForLoadState("networkidle");
      const measured = (await page.evaluate(INTERACTIVE_AT)) as { interactiveMs: number; requests: number };
      times.push(measured.interactiveMs);
      requests = measured.requests;
      await context.close();
    }
    const median = percentile(times, 0.5);
    const worst = Math.max(...times);
    const report = {
      js_files: bundle.files,
      js_total_gzip_kb: Number((bundle.totalGzipBytes / 1024).toFixed(1)),
      js_initial_gzip_kb: Number((bundle.initialGzipBytes / 1024).toFixed(1)),
      js_budget_kb: JS_BUDGET_BYTES / 1024,
      projects: PROJECTS,
      runs: RUNS,
      requests_per_load: requests,
      time_to_interactive_ms: { median: Math.round(median), worst: Math.round(worst), all: times.map(Math.round) },
      tti_budget_ms: TTI_BUDGET_MS,
      chromium: browser.version(),
      database: database.description,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    const withinBudget = bundle.totalGzipBytes <= JS_BUDGET_BYTES && median <= TTI_BUDGET_MS;
    log(
      `JS ${report.js_total_gzip_kb} KB gz (budget ${report.js_budget_kb}); projects page with ${PROJECTS} projects interactive in ${report.time_to_interactive_ms.median} ms median, ${report.time_to_interactive_ms.worst} ms worst (budget ${TTI_BUDGET_MS})`,
    );
    return withinBudget ? 0 : 1;
  } finally {
    await browser.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await owner.end().catch(() => {});
    await pool.end();
    await database.close();
  }
}
