/**
 * The web app's files (web/dist, built by `npm run build:web`, which `npm install` and `npm ci`
 * run): hashed assets cached for a year, and index.html, never cached, for every other GET
 * outside the API's own paths, so the app's router shows the page. index.html gets a
 * <base href> from PUBLIC_BASE_URL's path, under which the assets, pages and API calls resolve.
 * Without a build, pages answer 503 with a page that tells the operator how to build it.
 */
import fs from "node:fs/promises";
import path from "node:path";
import express, { type RequestHandler } from "express";

/** paths that are never pages: the API, the operator's endpoints, and missing assets */
const NOT_PAGES = /^\/(?:backend-api|healthz|metrics|ops|assets)(?:\/|$)/;

/**
 * What the pages may load: this origin's scripts and styles only (Vite emits no inline ones),
 * images from here or data: (the icon), and no framing.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Swarf: the web app is not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem">
<h1>The web app is not built</h1>
<p>This Swarf server has no built web app (web/dist/index.html is missing).</p>
<p>Run <code>npm run build:web</code> in Swarf's folder (<code>npm install</code> and <code>npm ci</code> run it too),
then reload this page. The API at <code>/backend-api/api/public/v1</code> works without it.</p>
</body></html>
`;

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** "/" or "/swarf/": PUBLIC_BASE_URL's path, with the trailing slash <base href> needs */
export function appBasePath(publicBaseUrl: string | undefined): string {
  if (!publicBaseUrl) return "/";
  const pathname = new URL(publicBaseUrl).pathname.replace(/\/+$/, "");
  return `${pathname}/`;
}

export function webAppRouter(options: { distDir: string; publicBaseUrl: string | undefined }): express.Router {
  const router = express.Router();
  const base = `<base href="${escapeAttribute(appBasePath(options.publicBaseUrl))}" />`;

  // hashed names: a changed file is a new name, so a year's caching is safe
  router.use(
    "/assets",
    express.static(path.join(options.distDir, "assets"), {
      immutable: true,
      maxAge: "365d",
      index: false,
      redirect: false,
      fallthrough: true,
    }),
  );

  const page: RequestHandler = async (req, res, next) => {
    if (NOT_PAGES.test(req.path)) {
      next();
      return;
    }
    let html: string;
    try {
      // read per request: a build made after the server started is served at once
      html = await fs.readFile(path.join(options.distDir, "index.html"), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        next(error);
        return;
      }
      res.status(503).set({ "Cache-Control": "no-store", "Content-Type": "text/html; charset=utf-8" }).send(NOT_BUILT);
      return;
    }
    res
      .status(200)
      .set({
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-cache",
        "Content-Security-Policy": CONTENT_SECURITY_POLICY,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
      })
      .send(html.replace(/<base href="[^"]*"\s*\/?>/, base));
  };
  router.get(/.*/, page);
  return router;
}
