/** Where the public API is mounted (public-api.md: {base_url} is the host followed by this). */
export const API_BASE_PATH = "/backend-api/api/public/v1";
