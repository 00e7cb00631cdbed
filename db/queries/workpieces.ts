/**
 * Workpieces: what ingesting an uploaded file produced, with its four blobs. saveWorkpiece is
 * all the upload route needs after the kernel ran: it stores the blobs, the workpiece and a
 * new job in the request's transaction.
 */
import type { IngestedWorkpiece, MeshDeflection } from "../../kernel/geometry/types.ts";
import { boundingBoxStock } from "../../kernel/job/stock.ts";
import { BLOB_CONTENT_TYPES, type WorkpieceMeta } from "../../kernel/job/types.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import { postgresBlobStore } from "../../storage/postgres.ts";
import {
  presignBlob,
  presignedUrl,
  presignExpiry,
  type PresignedUrl,
  type PresignOptions,
} from "../../storage/presign.ts";
import type { Queryable } from "../request-transaction.ts";
import { newJobFrom, type JobRecord } from "./jobs.ts";

export interface WorkpieceBlobIds {
  original: string;
  /** null for STL */
  brep: string | null;
  /** null (with thumbnail) until the tessellate task made them: an import of a file without a mesh */
  mesh: string | null;
  thumbnail: string | null;
}

export interface WorkpieceRecord {
  id: string;
  projectId: string;
  meta: WorkpieceMeta;
  blobs: WorkpieceBlobIds;
  /** what the mesh was made with; null when not known (imported with the file, or STL) */
  meshDeflection: MeshDeflection | null;
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
  mesh_blob_id: string | null;
  thumbnail_blob_id: string | null;
  mesh_linear_deflection_mm: number | null;
  mesh_angular_deflection_rad: number | null;
  created_at: Date;
}

const COLUMNS = `id, project_id, format, original_filename, units_read, bbox_min, bbox_max, volume_mm3, face_count,
  triangle_count, closed_solid, warnings, original_blob_id, brep_blob_id, mesh_blob_id, thumbnail_blob_id,
  mesh_linear_deflection_mm, mesh_angular_deflection_rad, created_at`;

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
    blobs: {
      original: row.original_blob_id,
      brep: row.brep_blob_id,
      mesh: row.mesh_blob_id,
      thumbnail: row.thumbnail_blob_id,
    },
    meshDeflection:
      row.mesh_linear_deflection_mm !== null && row.mesh_angular_deflection_rad !== null
        ? { linearMm: row.mesh_linear_deflection_mm, angularRad: row.mesh_angular_deflection_rad }
        : null,
    createdAt: row.created_at,
  };
}

export async function getWorkpiece(
  db: Queryable,
  id: string,
  options: { lock?: boolean } = {},
): Promise<WorkpieceRecord | null> {
  const { rows } = await db.query<WorkpieceRow>(
    `select ${COLUMNS} from app_public.workpieces where id = $1${options.lock ? " for no key update" : ""}`,
    [id],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** For operators (owner connection): whose workpiece this is, if its project is live. */
export async function workpieceOwner(db: Queryable, id: string): Promise<{ userId: string; projectId: string } | null> {
  const { rows } = await db.query<{ user_id: string; project_id: string }>(
    `select w.user_id, w.project_id from app_public.workpieces w
       join app_public.projects p on p.id = w.project_id and p.deleted_at is null
      where w.id = $1`,
    [id],
  );
  return rows[0] ? { userId: rows[0].user_id, projectId: rows[0].project_id } : null;
}

/**
 * A workpiece's mesh (binary glTF, kernel/mesh/glb.ts) as the tessellate task stored it; null
 * when there is no workpiece or it has no mesh yet (an imported job file without one).
 */
export async function workpieceMesh(
  db: Queryable,
  workpiece: WorkpieceRecord | null,
  store: BlobStore = postgresBlobStore,
): Promise<Uint8Array | null> {
  if (workpiece?.blobs.mesh == null) return null;
  return (await store.get(db, workpiece.blobs.mesh))?.bytes ?? null;
}

/** The bytes of a workpiece, as the kernel produced them. */
export interface WorkpieceFiles {
  original: Uint8Array;
  brep: Uint8Array | null;
  /** null (with thumbnail): none yet, the tessellate task makes them */
  mesh: Uint8Array | null;
  thumbnail: Uint8Array | null;
  meshDeflection?: MeshDeflection | null;
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
  const { mesh, thumbnail } = await putMesh(db, files, store);
  const { rows } = await db.query<WorkpieceRow>(
    `insert into app_public.workpieces (project_id, format, original_filename, units_read, bbox_min, bbox_max,
       volume_mm3, face_count, triangle_count, closed_solid, warnings, original_blob_id, brep_blob_id, mesh_blob_id,
       thumbnail_blob_id, mesh_linear_deflection_mm, mesh_angular_deflection_rad)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
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
      mesh?.id ?? null,
      thumbnail?.id ?? null,
      files.meshDeflection?.linearMm ?? null,
      files.meshDeflection?.angularRad ?? null,
    ],
  );
  return toRecord(rows[0]!);
}

async function putMesh(
  db: Queryable,
  files: Pick<WorkpieceFiles, "mesh" | "thumbnail">,
  store: BlobStore,
): Promise<{ mesh: { id: string } | null; thumbnail: { id: string } | null }> {
  if ((files.mesh === null) !== (files.thumbnail === null))
    throw new Error("a workpiece has a mesh and a thumbnail, or neither");
  return {
    mesh: files.mesh ? await store.put(db, files.mesh, BLOB_CONTENT_TYPES.mesh) : null,
    thumbnail: files.thumbnail ? await store.put(db, files.thumbnail, BLOB_CONTENT_TYPES.thumbnail) : null,
  };
}

/** A new mesh for a workpiece (the tessellate task's output). */
export interface ReplacementMesh {
  mesh: Uint8Array;
  thumbnail: Uint8Array;
  triangleCount: number;
  meshDeflection: MeshDeflection | null;
  /** warnings of the meshing itself (unmeshed_faces); they replace the old ones of that kind */
  meshWarnings: WorkpieceMeta["warnings"];
}

const MESH_WARNING_CODES = new Set(["unmeshed_faces"]);

/**
 * Gives a workpiece a new mesh and thumbnail, in the caller's transaction with the owner's
 * identity (withUserTransaction): the row is locked, the blobs stored, the row pointed at them,
 * and the blobs it pointed at before deleted unless another workpiece still uses them. Null
 * when the workpiece is gone (its project purged meanwhile).
 */
export async function replaceWorkpieceMesh(
  db: Queryable,
  workpieceId: string,
  replacement: ReplacementMesh,
  store: BlobStore = postgresBlobStore,
): Promise<WorkpieceRecord | null> {
  const before = await getWorkpiece(db, workpieceId, { lock: true });
  if (!before) return null;
  const mesh = await store.put(db, replacement.mesh, BLOB_CONTENT_TYPES.mesh);
  const thumbnail = await store.put(db, replacement.thumbnail, BLOB_CONTENT_TYPES.thumbnail);
  const warnings = [
    ...before.meta.warnings.filter((w) => !MESH_WARNING_CODES.has(w.code)),
    ...replacement.meshWarnings,
  ];
  const { rows } = await db.query<WorkpieceRow>(
    `update app_public.workpieces
        set mesh_blob_id = $2, thumbnail_blob_id = $3, triangle_count = $4, warnings = $5,
            mesh_linear_deflection_mm = $6, mesh_angular_deflection_rad = $7
      where id = $1
      returning ${COLUMNS}`,
    [
      workpieceId,
      mesh.id,
      thumbnail.id,
      replacement.triangleCount,
      JSON.stringify(warnings),
      replacement.meshDeflection?.linearMm ?? null,
      replacement.meshDeflection?.angularRad ?? null,
    ],
  );
  for (const old of [before.blobs.mesh, before.blobs.thumbnail]) {
    if (old && old !== mesh.id && old !== thumbnail.id) await store.delete(db, old);
  }
  return toRecord(rows[0]!);
}

export function workpieceMeta(
  ingested: Omit<IngestedWorkpiece, "mesh" | "brep" | "meshDeflection">,
  filename: string | null,
): WorkpieceMeta {
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
    const files = {
      original: originalBytes,
      brep: ingested.brep,
      mesh: glb,
      thumbnail: png,
      meshDeflection: ingested.meshDeflection,
    };
    workpiece = await insertWorkpiece(db, projectId, meta, files, options.store);
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
export async function presignWorkpiece(
  db: Queryable,
  workpiece: WorkpieceRecord,
  options: PresignOptions,
): Promise<WorkpieceUrls> {
  if (!workpiece.blobs.mesh || !workpiece.blobs.thumbnail) throw new Error(`workpiece ${workpiece.id} has no mesh yet`);
  const now = options.now ?? Date.now();
  const mesh = await presignBlob(db, workpiece.blobs.mesh, "mesh", { ...options, now });
  const thumbnail = await presignBlob(db, workpiece.blobs.thumbnail, "thumbnail", { ...options, now });
  if (!mesh || !thumbnail) throw new Error(`workpiece ${workpiece.id}: its blobs could not be presigned`);
  return { mesh_url: mesh.url, thumbnail_url: thumbnail.url, expires_at: mesh.expires_at };
}

export interface ProjectPart {
  /** the uploaded file's name; null when it had none (a job file's import) */
  filename: string | null;
  /** null while the workpiece has no mesh yet (an imported job file without one) */
  thumbnail: PresignedUrl | null;
}

/**
 * The workpiece of each given project's current job, with its thumbnail presigned, by project
 * id, in one statement; a project without a workpiece is absent.
 */
export async function projectParts(
  db: Queryable,
  projectIds: readonly string[],
  options: PresignOptions,
): Promise<Map<string, ProjectPart>> {
  if (projectIds.length === 0) return new Map();
  const expires = presignExpiry(options);
  const { rows } = await db.query<{
    project_id: string;
    original_filename: string | null;
    thumbnail_blob_id: string | null;
    signature: Buffer | null;
  }>({
    name: "project_parts",
    text: `select p.id as project_id, w.original_filename, w.thumbnail_blob_id,
                  case when w.thumbnail_blob_id is not null
                       then app_public.presign_blob(w.thumbnail_blob_id, 'thumbnail', $2) end as signature
             from app_public.projects p
             join app_public.jobs j on j.id = p.current_job_id
             join app_public.workpieces w on w.id = j.workpiece_id
            where p.id = any($1::uuid[])`,
    values: [projectIds, expires],
  });
  return new Map(
    rows.map((row) => [
      row.project_id,
      {
        filename: row.original_filename,
        thumbnail:
          row.thumbnail_blob_id && row.signature
            ? presignedUrl(row.thumbnail_blob_id, "thumbnail", expires, row.signature, options)
            : null,
      },
    ]),
  );
}
