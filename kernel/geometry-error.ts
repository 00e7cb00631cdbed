/**
 * Input the kernel refuses, with a code the API passes on (422) and a sentence a user can act on.
 * Geometry readers (geometry/) and mesh writers (mesh/) both raise it.
 */
export class GeometryError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown>;
  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "GeometryError";
    this.code = code;
    this.details = details;
  }
}
