/**
 * The web app's build: web/src into web/dist, served by the API process (api/web-app.ts).
 * Asset URLs are relative ("./assets/..."), resolved against the <base href> the server writes
 * into index.html, so the same build works under a PUBLIC_BASE_URL path prefix.
 */
import path from "node:path";
import { defineConfig } from "vite";

const root = path.resolve(import.meta.dirname);

export default defineConfig({
  root,
  base: "./",
  publicDir: false,
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: path.join(root, "dist"),
    emptyOutDir: true,
    assetsDir: "assets",
    // the page's CSP allows scripts from this origin only: no inline polyfill
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: "es2022",
    // the viewer's chunk is three.js (about 640 kB, 165 kB gzipped), loaded only by the project page's 3D view
    chunkSizeWarningLimit: 700,
  },
});
