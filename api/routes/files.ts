/**
 * Presigned files: a workpiece's mesh or thumbnail for whoever holds a URL the API handed out
 * (storage/presign.ts). No key; the signature is checked in the database.
 */
import { z } from "zod";
import { HttpError, notFound } from "../../http/errors/index.ts";
import { bytes } from "../reply.ts";
import { defineRoute } from "../route.ts";
import { idParams } from "../schemas/common.ts";
import { PRESIGN_PURPOSES, readPresignedBlob } from "../../storage/presign.ts";

// Lenient on purpose: a URL whose values were changed is 403 invalid_signature, not a 400.
const PresignedQuery = z.strictObject({
  purpose: z
    .string()
    .max(64)
    .describe(`what the URL was signed for: ${PRESIGN_PURPOSES.join(" or ")}`),
  expires: z.string().max(32).describe("Unix time (s) after which the URL is refused"),
  signature: z.string().max(256).describe("base64url HMAC-SHA256"),
});

const FILENAMES: Record<string, string> = { mesh: "mesh.glb", thumbnail: "thumbnail.png" };

const invalidSignature = () =>
  new HttpError(403, "invalid_signature", "the URL's signature does not match; use the URL exactly as the API gave it");

export const fileRoutes = [
  defineRoute({
    method: "get",
    path: "/files/{blob_id}",
    operationId: "getPresignedFile",
    summary: "A workpiece's mesh (.glb) or thumbnail (.png) through a presigned URL (no key needed)",
    description:
      "Use the URL exactly as an upload response gave it. It expires (usually after an hour), and stops working " +
      "at once when no live project of its owner holds the file any more (a URL names content: another project " +
      "of the owner with the very same file keeps it working). The mesh is gzip-encoded when Accept-Encoding asks for it.",
    tag: "Files",
    public: true,
    scopes: [],
    params: idParams("blob_id"),
    query: PresignedQuery,
    responses: {
      200: {
        description: "the file: model/gltf-binary (mesh) or image/png (thumbnail)",
        contentType: "*/*",
        schema: z.string().describe("binary"),
        headers: { "Cache-Control": "private, max-age until the URL expires", ETag: "the file's SHA-256" },
      },
    },
    errors: [403, 404],
    errorCodes: {
      403: "invalid_signature (the URL was changed), url_expired",
      404: "not_found: no live project of the owner holds the file any more",
    },
    async handler({ db, params, query }) {
      if (!/^\d{1,15}$/.test(query.expires) || !/^[A-Za-z0-9_-]{43}$/.test(query.signature)) throw invalidSignature();
      const expires = Number(query.expires);
      const signature = Buffer.from(query.signature, "base64url");
      // the last of 43 characters carries 4 bits and 2 spare ones the decoder ignores: only the
      // one spelling the API gave out is the URL, not the three others that decode the same
      if (signature.toString("base64url") !== query.signature) throw invalidSignature();
      const read = await readPresignedBlob(db, { blobId: params.blob_id, purpose: query.purpose, expires, signature });
      switch (read.outcome) {
        case "invalid_signature":
          throw invalidSignature();
        case "expired":
          throw new HttpError(403, "url_expired", "the URL has expired; ask the API for a new one", {
            expired_at: new Date(expires * 1000).toISOString(),
          });
        case "not_found":
          throw notFound("file", params.blob_id);
        case "ok": {
          const maxAge = Math.max(0, expires - Math.floor(Date.now() / 1000));
          return bytes(
            200,
            read.bytes,
            read.contentType,
            {
              "Cache-Control": `private, max-age=${maxAge}, immutable`,
              ETag: `"${read.sha256}"`,
              "Content-Disposition": `inline; filename="${FILENAMES[query.purpose] ?? "file"}"`,
              "X-Content-Type-Options": "nosniff",
              // a viewer on another origin (the web app) loads it; the URL itself is the credential
              "Access-Control-Allow-Origin": "*",
              "Cross-Origin-Resource-Policy": "cross-origin",
            },
            { compressible: read.contentType !== "image/png" },
          );
        }
      }
    },
  }),
];
