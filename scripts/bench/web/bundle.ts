/**
 * The JavaScript the web app ships, gzipped at level 9 (what a compressing proxy or CDN sends):
 * every .js file in web/dist, and the part index.html loads at start.
 */
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export interface BundleSize {
  files: { name: string; bytes: number; gzipBytes: number }[];
  totalGzipBytes: number;
  /** the scripts index.html names (what the first page load fetches) */
  initialGzipBytes: number;
}

export function measureBundle(distDir: string): BundleSize {
  const assets = path.join(distDir, "assets");
  const html = fs.readFileSync(path.join(distDir, "index.html"), "utf8");
  const files = fs
    .readdirSync(assets)
    .filter((name) => name.endsWith(".js"))
    .map((name) => {
      const bytes = fs.readFileSync(path.join(assets, name));
      return { name, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
    });
  const initial = files.filter((file) => html.includes(`assets/${file.name}`));
  return {
    files,
    totalGzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0),
    initialGzipBytes: initial.reduce((sum, file) => sum + file.gzipBytes, 0),
  };
}
