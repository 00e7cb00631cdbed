/** The error envelope as a test reads it from a refused request's body (docs/api-conventions.md). */
export interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}
