/**
 * Where this app lives: the server writes <base href> into index.html from PUBLIC_BASE_URL's
 * path ("/" without one), so pages and API calls carry the same prefix as the assets.
 */
const prefix = new URL(document.baseURI).pathname.replace(/\/+$/, "");

/** a page's path under the app's prefix: page("/settings/keys") */
export function page(path: string): string {
  return `${prefix}${path}`;
}

/** the path of a page below the prefix, as the routes are written ("/settings/keys") */
export function pagePath(locationPath: string): string {
  return locationPath.startsWith(prefix) ? locationPath.slice(prefix.length) || "/" : locationPath;
}

export const PUBLIC_API = `${prefix}/backend-api/api/public/v1`;
export const APP_API = `${prefix}/backend-api/api/app`;
