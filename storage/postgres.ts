/**
 * Blobs as bytea rows in app_private.blobs, reached only through the SECURITY DEFINER
 * functions of sql/migrations (find_blob, put_blob, read_blob, stat_blob, delete_blob), each
 * of which checks app_public.current_user_id() itself.
 */
import { createHash } from "node:crypto";
import type { Queryable } from "../db/request-transaction.ts";
import type { BlobRef, BlobStore, StoredBlob } from "./blob-store.ts";

interface BlobRow {
  blob_id: string;
  sha256: Buffer;
  size: number;
  content_type: string;
}

function toRef(row: BlobRow): BlobRef {
  return { id: row.blob_id, sha256: row.sha256.toString("hex"), size: Number(row.size), contentType: row.content_type };
}

export const postgresBlobStore: BlobStore = {
  async put(db, bytes, contentType) {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const sha256 = createHash("sha256").update(buffer).digest();
    // bytes the caller holds already are not sent again (find_blob keeps the row locked
    // until the transaction ends, so a purge cannot take it meanwhile)
    const found = await db.query<{ id: string | null }>("select app_public.find_blob($1, $2) as id", [
      sha256,
      contentType,
    ]);
    const id = found.rows[0]?.id;
    if (id) return { id, sha256: sha256.toString("hex"), size: buffer.length, contentType };
    const { rows } = await db.query<{ blob_id: string; blob_sha256: Buffer; blob_size: number }>(
      "select * from app_public.put_blob($1, $2)",
      [buffer, contentType],
    );
    const row = rows[0]!;
    return { id: row.blob_id, sha256: row.blob_sha256.toString("hex"), size: Number(row.blob_size), contentType };
  },

  async get(db, id) {
    const { rows } = await db.query<BlobRow & { bytes: Buffer }>(
      "select blob_id, sha256, size, content_type, bytes from app_public.read_blob($1)",
      [id],
    );
    const row = rows[0];
    return row ? ({ ...toRef(row), bytes: row.bytes } satisfies StoredBlob) : null;
  },

  async stat(db, id) {
    const { rows } = await db.query<BlobRow>(
      "select blob_id, sha256, size, content_type from app_public.stat_blob($1)",
      [id],
    );
    return rows[0] ? toRef(rows[0]) : null;
  },

  async delete(db: Queryable, id: string) {
    const { rows } = await db.query<{ deleted: boolean }>("select app_public.delete_blob($1) as deleted", [id]);
    return rows[0]?.deleted === true;
  },
};
