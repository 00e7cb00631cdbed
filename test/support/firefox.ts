/**
 * Debian's Firefox ESR (/usr/bin/firefox-esr, installed by .ci/run) driven by puppeteer-core
 * over WebDriver BiDi, headless, one browser per test file; nothing is downloaded (playwright-core
 * drives only its own patched Firefox). Like test/support/browser.ts, each page records its
 * console errors, uncaught exceptions and 5xx answers, so a test can say its pages had none.
 */
import fs from "node:fs";
import puppeteer, { type Browser, type BrowserContext, type ElementHandle, type Page } from "puppeteer-core";
import { assertWebBuilt, type ErrorRecord, errorRecord } from "./browser.ts";

export const FIREFOX = process.env.SWARF_FIREFOX ?? "/usr/bin/firefox-esr";

export async function launchFirefox(): Promise<Browser> {
  assertWebBuilt();
  if (!fs.existsSync(FIREFOX)) throw new Error(`no Firefox at ${FIREFOX}: apt-get install firefox-esr (.ci/run does)`);
  return puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX,
    headless: true,
    // the locale and time zone the Chromium tests give each context; Firefox takes them per browser
    extraPrefsFirefox: { "intl.accept_languages": "en-GB", "intl.locale.requested": "en-GB" },
    env: { ...process.env, TZ: "Europe/Berlin" },
  });
}

export interface FirefoxPage extends ErrorRecord {
  page: Page;
  context: BrowserContext;
  close(): Promise<void>;
}

/** a page in a browser context of its own (its own cookies), at the given size */
export async function openFirefoxPage(
  browser: Browser,
  viewport: { width: number; height: number },
): Promise<FirefoxPage> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport(viewport);
  page.setDefaultTimeout(10_000);
  const record = errorRecord();
  page.on("console", (message) => {
    if (message.type() === "error") record.errors.push(message.text());
  });
  page.on("pageerror", (error) =>
    record.errors.push(`uncaught: ${error instanceof Error ? error.message : String(error)}`),
  );
  page.on("response", (response) => {
    if (response.status() >= 500)
      record.serverErrors.push(`${response.request().method()} ${response.url()} ${response.status()}`);
  });
  return { page, context, ...record, close: () => context.close() };
}

// The server's TypeScript has no DOM types, so what runs in the page is given as text.

/** the element of that ARIA role whose accessible name is `name`, as a person finds it */
export function byRole(page: Page, role: string, name: string) {
  return page.locator(`::-p-aria([name=${JSON.stringify(name)}][role=${JSON.stringify(role)}])`);
}

/** waits for the page's h1 to read `name` */
export async function waitForHeading(page: Page, name: string): Promise<void> {
  await page.waitForFunction(
    `[...document.querySelectorAll("h1")].some((h1) => h1.textContent.trim() === ${JSON.stringify(name)})`,
  );
}

/** waits for an element matching `selector` whose text includes `text` */
export async function waitForText(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].some((element) => element.textContent.includes(${JSON.stringify(text)}))`,
  );
}

/** the form control whose <label> reads `label` (fails if none is labelled so) */
export async function byLabel(page: Page, label: string): Promise<ElementHandle> {
  const handle = await page.waitForFunction(
    `[...document.querySelectorAll("label")].find((element) => element.textContent.trim() === ${JSON.stringify(label)})?.control ?? false`,
  );
  const element = handle.asElement();
  if (!element) throw new Error(`no control labelled ${label}`);
  return element;
}

/** the trimmed text of the first element matching `selector`; null when there is none */
export async function textOf(page: Page, selector: string): Promise<string | null> {
  const text = await page.evaluate(`document.querySelector(${JSON.stringify(selector)})?.textContent.trim() ?? null`);
  return typeof text === "string" ? text : null;
}

/** an attribute of the first element matching `selector`; null when either is missing */
export async function attributeOf(page: Page, selector: string, name: string): Promise<string | null> {
  const value = await page.evaluate(
    `document.querySelector(${JSON.stringify(selector)})?.getAttribute(${JSON.stringify(name)}) ?? null`,
  );
  return typeof value === "string" ? value : null;
}

/** whether an element matches `selector` and is shown */
export async function isShown(page: Page, selector: string): Promise<boolean> {
  const element = await page.$(selector);
  return (await element?.isVisible()) ?? false;
}

/** the window's width and the page's as laid out: a wider page scrolls sideways */
export async function widths(page: Page): Promise<{ window: number; page: number }> {
  const [window, laidOut] = await Promise.all([
    page.evaluate("window.innerWidth"),
    page.evaluate("document.documentElement.scrollWidth"),
  ]);
  return { window: Number(window), page: Number(laidOut) };
}
