/**
 * Workpieces: what ingesting an uploaded file produced, with its four blobs. saveWorkpiece is
 * all the upload route needs after the kernel ran: it stores the blobs, the workpiece and a
 * new job in the request's transaction.
 */
import type { IngestedWorkpiece } from "../../kernel/geometry/types.ts";
import { boundingBoxStock } from "../../kernel/job/stock.ts";
import { BLOB_CONTENT_TYPES, type WorkpieceMeta } from "../../kernel/job/types.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import { postgresBlobStore } from "../../storage/postgres.ts";
import { presignBlob, type PresignedUrl } from "../../storage/presign.ts";
import type { Queryable } from "../request-transaction.ts";
import { newJobFrom, type JobRecord } from "./jobs.ts";

export interface WorkpieceBlobIds {
  original: string;
  /** null for STL */
  brep: string | null;
  mesh: string;
  thumbnail: string;
}

export interface WorkpieceRecord {
  id: string;
  projectId: string;
  meta: WorkpieceMeta;
  blobs: WorkpieceBlobIds;
  createdAt: Date;
}

interface WorkpieceRow {
  id: string;
  project_id: string;
  format: WorkpieceMeta["format"];
  original_filename: string | null;
  units_read: string;
  bbox_min: number[];
  bbox_max: number[];
  volume_mm3: number | null;
  face_count: number;
  triangle_count: number;
  closed_solid: boolean;
  warnings: WorkpieceMeta["warnings"];
  original_blob_id: string;
  brep_blob_id: string | null;
  mesh_blob_id: string;
  thumbnail_blob_id: string;
  created_at: Date;
}

const COLUMNS = `id, project_id, format, original_filename, units_read, bbox_min, bbox_max, volume_mm3, face_count,
  triangle_count, closed_solid, warnings, original_blob_id, brep_blob_id, mesh_blob_id, thumbnail_blob_id, created_at`;

function vec3(values: number[]): [number, number, number] {
  return [values[0]!, values[1]!, values[2]!];
}

function toRecord(row: WorkpieceRow): WorkpieceRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    meta: {
      format: row.format,
      original_filename: row.original_filename,
      units_read: row.units_read,
      bbox: { min: vec3(row.bbox_min), max: vec3(row.bbox_max) },
      volume_mm3: row.volume_mm3,
      face_count: row.face_count,
      triangle_count: row.triangle_count,
      closed_solid: row.closed_solid,
      warnings: row.warnings,
    },
    blobs: { original: row.original_blob_id, brep: row.brep_blob_id, mesh: row.mesh_blob_id, thumbnail: row.thumbnail_blob_id },
    createdAt: row.created_at,
  };
}

export async function getWorkpiece(db: Queryable, id: string): Promise<WorkpieceRecord | null> {
  const { rows } = await db.query<WorkpieceRow>(`select ${COLUMNS} from app_public.workpieces where id = $1`, [id]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** The bytes of a workpiece, as the kernel produced them. */
export interface WorkpieceFiles {
  original: Uint8Array;
  brep: Uint8Array | null;
  mesh: Uint8Array;
  thumbnail: Uint8Array;
}

/** Stores a workpiece's blobs and its row (the project must be the caller's; RLS checks). */
export async function insertWorkpiece(
  db: Queryable,
  projectId: string,
  meta: WorkpieceMeta,
  files: WorkpieceFiles,
  store: BlobStore = postgresBlobStore,
): Promise<WorkpieceRecord> {
  const original = await store.put(db, files.original, BLOB_CONTENT_TYPES.original[meta.format]);
  const brep = files.brep ? await store.put(db, files.brep, BLOB_CONTENT_TYPES.brep) : null;
  const mesh = await store.put(db, files.mesh, BLOB_CONTENT_TYPES.mesh);
  const thumbnail = await store.put(db, files.thumbnail, BLOB_CONTENT_TYPES.thumbnail);
  const { rows } = await db.query<WorkpieceRow>(
    `insert into app_public.workpieces (project_id, format, original_filename, units_read, bbox_min, bbox_max,
       volume_mm3, face_count, triangle_count, closed_solid, warnings, original_blob_id, brep_blob_id, mesh_blob_id,
       thumbnail_blob_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     returning ${COLUMNS}`,
    [
      projectId,
      meta.format,
      meta.original_filename,
      meta.units_read,
      meta.bbox.min,
      meta.bbox.max,
      meta.volume_mm3,
      meta.face_count,
      meta.triangle_count,
      meta.closed_solid,
      JSON.stringify(meta.warnings),
      original.id,
      brep?.id ?? null,
      mesh.id,
      thumbnail.id,
    ],
  );
  return toRecord(rows[0]!);
}

export function workpieceMeta(ingested: Omit<IngestedWorkpiece, "mesh">, filename: string | null): WorkpieceMeta {
  return {
    format: ingested.format,
    original_filename: filename,
    units_read: ingested.unitsRead,
    bbox: { min: [...ingested.bbox.min], max: [...ingested.bbox.max] },
    volume_mm3: ingested.volumeMm3,
    face_count: ingested.faceCount,
    triangle_count: ingested.triangleCount,
    closed_solid: ingested.closedSolid,
    warnings: ingested.warnings.map((w) => ({ code: w.code, message: w.message })),
  };
}

export interface SavedWorkpiece {
  workpiece: WorkpieceRecord;
  /** the new current job */
  job: JobRecord;
}

/**
 * Stores an ingested workpiece (the uploaded file, its B-rep, the mesh as .glb and the
 * thumbnail as .png) and saves a new job with it, which becomes the project's current job.
 * Stock the previous job had is carried over as its offsets, recomputed around the new
 * part's bounding box. Null when the project is not the caller's; nothing is stored then.
 */
export async function saveWorkpiece(
  db: Queryable,
  projectId: string,
  ingested: Omit<IngestedWorkpiece, "mesh">,
  originalBytes: Uint8Array,
  glb: Uint8Array,
  png: Uint8Array,
  options: { filename?: string | null; store?: BlobStore } = {},
): Promise<SavedWorkpiece | null> {
  let workpiece: WorkpieceRecord | undefined;
  const job = await newJobFrom(db, projectId, async (current) => {
    const meta = workpieceMeta(ingested, options.filename ?? null);
    workpiece = await insertWorkpiece(db, projectId, meta, { original: originalBytes, brep: ingested.brep, mesh: glb, thumbnail: png }, options.store);
    return {
      source: "workpiece",
      workpieceId: workpiece.id,
      stock: current?.stock ? boundingBoxStock(meta.bbox, current.stock.offsets) : null,
    };
  });
  if (!job || !workpiece) return null;
  return { workpiece, job };
}

export interface WorkpieceUrls {
  mesh_url: string;
  thumbnail_url: string;
  expires_at: string;
}

/** Presigned URLs of a workpiece's mesh and thumbnail (see storage/presign.ts). */
export async function presignWorkpiece(db: Queryable, workpiece: WorkpieceRecord, options: { ttlSeconds?: number; now?: number } = {}): Promise<WorkpieceUrls> {
  const now = options.now ?? Date.now();
  const mesh = await presignBlob(db, workpiece.blobs.mesh, "mesh", { ...options, now });
  const thumbnail = await presignBlob(db, workpiece.blobs.thumbnail, "thumbnail", { ...options, now });
  if (!mesh || !thumbnail) throw new Error(`workpiece ${workpiece.id}: its blobs could not be presigned`);
  return { mesh_url: mesh.url, thumbnail_url: thumbnail.url, expires_at: mesh.expires_at };
}
