/** Why the geometry pool could not answer a request (pool.ts). */
export class GeometryUnavailable extends Error {
  /**
   * geometry_busy: no thread took the request up within the queue bound (it never started);
   * geometry_timeout: it ran on a thread past the request timeout;
   * geometry_aborted: the caller's signal stopped the request (its thread, if it had one, was terminated)
   */
  readonly code:
    | "geometry_worker_crashed"
    | "geometry_timeout"
    | "geometry_busy"
    | "geometry_pool_closed"
    | "geometry_aborted";
  constructor(code: GeometryUnavailable["code"], message: string) {
    super(message);
    this.name = "GeometryUnavailable";
    this.code = code;
  }
}
