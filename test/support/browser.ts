/**
 * Debian's Chromium (/usr/bin/chromium, installed by .ci/run) driven by playwright-core, headless,
 * one browser per test file; nothing is downloaded. Each page records its console errors,
 * uncaught exceptions and 5xx answers, so a test can say its pages had none.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { repoRoot } from "../../config/env.ts";

export const CHROMIUM = process.env.SWARF_CHROMIUM ?? "/usr/bin/chromium";
export const WEB_DIST = path.join(repoRoot, "web", "dist");

/** the newest modification time of the app's sources (web/src, web/index.html), in ms */
function newestSource(): number {
  const src = path.join(repoRoot, "web", "src");
  const files = fs.readdirSync(src, { recursive: true, encoding: "utf8" }).map((file) => path.join(src, file));
  return Math.max(...[...files, path.join(repoRoot, "web", "index.html")].map((file) => fs.statSync(file).mtimeMs));
}

/** throws unless web/dist holds a build of the current sources */
export function assertWebBuilt(): void {
  const built = path.join(WEB_DIST, "index.html");
  if (!fs.existsSync(built)) throw new Error(`the web app is not built (${WEB_DIST}): run npm run build:web`);
  // a build older than its sources would test yesterday's pages
  if (fs.statSync(built).mtimeMs < newestSource())
    throw new Error(`the web app's build is older than web/src: run npm run build:web`);
}

/**
 * The test API and a browser, started side by side; if either fails the other is closed before
 * the error is thrown, so a missing browser fails the file instead of leaving an open server
 * that keeps it running.
 */
export async function startedTogether<A extends { close(): Promise<void> }, B extends { close(): Promise<void> }>(
  api: Promise<A>,
  browser: Promise<B>,
): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled([api, browser]);
  if (a.status === "fulfilled" && b.status === "fulfilled") return [a.value, b.value];
  if (a.status === "fulfilled") await a.value.close();
  if (b.status === "fulfilled") await b.value.close();
  throw a.status === "rejected" ? a.reason : (b as PromiseRejectedResult).reason;
}

/**
 * WebGL without a GPU: ANGLE on SwiftShader, Chromium's CPU renderer, which headless Chromium
 * only uses when told it may (the project page's 3D view needs WebGL).
 */
export const WEBGL_ARGS = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"];

export async function launchBrowser(): Promise<Browser> {
  assertWebBuilt();
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (.ci/run does)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: WEBGL_ARGS });
}

/** a page's record of errors, whichever browser drives it */
export interface ErrorRecord {
  /** console errors and uncaught exceptions, in order */
  errors: string[];
  /** answers of 500 and above, "METHOD url status" */
  serverErrors: string[];
  /**
   * fails on any error since the last check not matched by one of `allowed` (a known refusal
   * the test caused); then starts the record afresh
   */
  assertClean(allowed?: RegExp[]): void;
}

export interface WatchedPage extends ErrorRecord {
  page: Page;
  context: BrowserContext;
  close(): Promise<void>;
}

/** a page's record of errors and its check, for any browser's driver to fill */
export function errorRecord(): ErrorRecord {
  const errors: string[] = [];
  const serverErrors: string[] = [];
  return {
    errors,
    serverErrors,
    assertClean(allowed = []) {
      const fiveHundreds = [...serverErrors];
      const unexpected = errors.filter((text) => !allowed.some((pattern) => pattern.test(text)));
      errors.length = 0;
      serverErrors.length = 0;
      assert.deepEqual(fiveHundreds, [], "no answer of 500 or above");
      assert.deepEqual(unexpected, [], "no console errors");
    },
  };
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

export async function openPage(
  browser: Browser,
  options: { viewport?: { width: number; height: number }; locale?: string } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    locale: options.locale ?? "en-GB",
    timezoneId: "Europe/Berlin",
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const record = errorRecord();
  const { errors, serverErrors } = record;
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
  page.on("response", (response) => {
    if (response.status() >= 500)
      serverErrors.push(`${response.request().method()} ${response.url()} ${response.status()}`);
  });
  return { page, context, ...record, close: () => context.close() };
}

/**
 * The browser logs every refused request as a console error ("Failed to load resource: the
 * server responded with a status of 401"): the sign-in page's session check when signed out,
 * a wrong password. A test allows the ones it caused, by status.
 */
export function refusedWith(status: number): RegExp {
  return new RegExp(`^Failed to load resource: the server responded with a status of ${status}\\b`);
}

/** signs in through the sign-in page, as a person does, and waits for the projects page */
export async function signInThroughPage(page: Page, origin: string, email: string, password: string): Promise<void> {
  await page.goto(`${origin}/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { level: 1, name: "Projects" }).waitFor();
}

/**
 * A page already signed in: the session cookie of a sign-in made over HTTP (one password hash
 * per file, not per test), for tests whose subject is not the sign-in form itself
 */
export async function openSignedInPage(
  browser: Browser,
  origin: string,
  sessionToken: string,
  options: { viewport?: { width: number; height: number }; locale?: string } = {},
): Promise<WatchedPage> {
  const tab = await openPage(browser, options);
  await tab.context.addCookies([
    { name: "swarf_session", value: sessionToken, url: origin, httpOnly: true, sameSite: "Lax" },
  ]);
  return tab;
}

/** what the page's images look like to a test (the server's TypeScript has no DOM types) */
interface ImageState {
  alt: string;
  complete: boolean;
  naturalWidth: number;
}

/**
 * Waits until an image with this alt text has loaded and decoded (a broken or refused image
 * has no natural width) and gives its natural width. A function, not a string: the app's CSP
 * forbids the eval a string predicate needs.
 */
export async function loadedImageWidth(page: Page, alt: string): Promise<number> {
  const width = await page.waitForFunction((wanted) => {
    const images = (globalThis as unknown as { document: { images: ArrayLike<ImageState> } }).document.images;
    const image = Array.from(images).find((img) => img.alt === wanted && img.complete && img.naturalWidth > 0);
    return image ? image.naturalWidth : false;
  }, alt);
  return (await width.jsonValue()) as number;
}
