/** Where the public API is mounted (public-api.md: {base_url} is the host followed by this). */
export const API_BASE_PATH = "/backend-api/api/public/v1";

/** Where the web app's own JSON routes are mounted: beside the public API, not in its OpenAPI document. */
export const APP_ROUTES_PATH = "/backend-api/api/app";
