/**
 * What crosses the thread boundary of the geometry pool. Errors do not survive structured
 * cloning with their fields, so a thread answers with an outcome instead of throwing.
 */
import type { IngestedWorkpiece } from "../../kernel/geometry/types.ts";

export interface IngestRequest {
  kind: "ingest";
  bytes: Uint8Array;
  /** the uploaded file's name, only for a warning when its extension names another format */
  filename?: string;
  /** mm; default: relative to the part's size (kernel/geometry/tessellate.ts) */
  linearDeflectionMm?: number;
  /** radians; default 0.5 */
  angularDeflectionRad?: number;
}

export interface PingRequest {
  kind: "ping";
}

export type GeometryRequest = IngestRequest | PingRequest;

export type IngestSuccess = {
  ok: true;
  workpiece: Omit<IngestedWorkpiece, "mesh" | "brep">;
  brep: Uint8Array | null;
  glb: Uint8Array;
  thumbnail: Uint8Array;
  /** milliseconds spent in the thread, by step */
  timings: Record<string, number>;
};

export type IngestRefusal = {
  ok: false;
  code: string;
  message: string;
  details: Record<string, unknown>;
};

export type IngestOutcome = IngestSuccess | IngestRefusal;
