/**
 * Where workpiece files, B-reps, meshes and thumbnails are kept. Every call takes the caller's
 * database client (in the API: the request's transaction, identity set), so what a request
 * stores commits or rolls back with the rest of its work, and a backend keeps its metadata,
 * ownership and references in PostgreSQL whatever holds the bytes.
 *
 * storage/postgres.ts is the default and only backend today (bytes in app_private.blobs).
 * Another one (an object store) would keep the same rows with the bytes elsewhere, write the
 * object before the row and collect objects whose row never committed.
 */
import type { Queryable } from "../db/request-transaction.ts";

export interface BlobRef {
  id: string;
  /** hex */
  sha256: string;
  size: number;
  contentType: string;
}

export interface StoredBlob extends BlobRef {
  bytes: Buffer;
}

export interface BlobStore {
  /**
   * Stores bytes for the caller. Content-addressed per user: bytes the caller stored before
   * with the same content type come back as that blob, and are not sent again.
   */
  put(db: Queryable, bytes: Uint8Array, contentType: string): Promise<BlobRef>;
  /** The caller's blob with its bytes, or null (missing, or another user's). */
  get(db: Queryable, id: string): Promise<StoredBlob | null>;
  /** The caller's blob without its bytes, or null. */
  stat(db: Queryable, id: string): Promise<BlobRef | null>;
  /** Deletes one of the caller's blobs that no workpiece uses; false when in use, missing or not the caller's. */
  delete(db: Queryable, id: string): Promise<boolean>;
}
