/**
 * multipart/form-data with exactly one file part, held in memory, for the routes that declare
 * `upload` (api/route.ts). Each way of getting it wrong has its own code:
 *
 *   415 unsupported_media_type  not multipart/form-data
 *   413 payload_too_large       the file is larger than the limit (details.limit_bytes); a
 *                               Content-Length far beyond it is refused before reading (the
 *                               rest is read and discarded after the answer: refused-body)
 *   400 file_missing            no file part
 *   400 too_many_files          more than one file part
 *   400 unexpected_field        a part of another name, or a text field
 *   400 malformed_multipart     the body does not parse
 *
 * The file's SHA-256 is the body fingerprint for Idempotency-Key.
 */
import { createHash } from "node:crypto";
import type { RequestHandler } from "express";
import multer, { MulterError } from "multer";
import type { UploadedFile } from "../../route.ts";
import { HttpError } from "../../../http/errors/index.ts";

/** what multipart framing may add to a file's size before the Content-Length alone means too large */
const FRAMING_ALLOWANCE_BYTES = 64 * 1024;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      upload?: UploadedFile;
    }
  }
}

function tooLarge(limitBytes: number): HttpError {
  return new HttpError(413, "payload_too_large", `the uploaded file exceeds ${limitBytes} bytes`, {
    limit_bytes: limitBytes,
  });
}

function fromMulter(error: unknown, field: string, limitBytes: number): HttpError {
  if (error instanceof MulterError) {
    switch (error.code) {
      case "LIMIT_FILE_SIZE":
        return tooLarge(limitBytes);
      case "LIMIT_FILE_COUNT":
        return new HttpError(400, "too_many_files", `send exactly one file, in the part named ${field}`, { field });
      case "LIMIT_FIELD_COUNT":
      case "LIMIT_FIELD_KEY":
      case "LIMIT_FIELD_VALUE":
      case "LIMIT_UNEXPECTED_FILE":
        return new HttpError(400, "unexpected_field", `send only one part, a file named ${field}`, {
          field: error.field ?? null,
        });
      default:
        return new HttpError(400, "malformed_multipart", "the multipart body could not be read", {
          reason: error.code,
        });
    }
  }
  return new HttpError(400, "malformed_multipart", "the multipart body could not be read");
}

export function multipartUpload(options: { field: string; limitBytes: number }): RequestHandler {
  const { field, limitBytes } = options;
  const parse = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: limitBytes, files: 1, fields: 0 },
  }).any();
  return (req, res, next) => {
    if (!req.is("multipart/form-data")) {
      next(
        new HttpError(415, "unsupported_media_type", `send the file as multipart/form-data, in a part named ${field}`, {
          content_type: req.get("content-type") ?? null,
        }),
      );
      return;
    }
    const declared = Number(req.get("content-length"));
    if (Number.isFinite(declared) && declared > limitBytes + FRAMING_ALLOWANCE_BYTES) {
      // not worth parsing: answered at once; the client may stop sending (refused-body)
      next(tooLarge(limitBytes));
      return;
    }
    parse(req, res, (error: unknown) => {
      if (error) {
        next(fromMulter(error, field, limitBytes));
        return;
      }
      const files = (req.files ?? []) as Express.Multer.File[];
      const file = files[0];
      if (!file) {
        next(new HttpError(400, "file_missing", `send the file in a multipart part named ${field}`, { field }));
        return;
      }
      if (file.fieldname !== field) {
        next(
          new HttpError(
            400,
            "unexpected_field",
            `the file part is named ${JSON.stringify(file.fieldname)}; name it ${field}`,
            {
              field: file.fieldname,
            },
          ),
        );
        return;
      }
      const upload: UploadedFile = {
        field,
        filename: file.originalname ? file.originalname : null,
        contentType: file.mimetype,
        size: file.size,
        bytes: file.buffer,
      };
      res.locals.upload = upload;
      res.locals.bodyFingerprint = createHash("sha256")
        .update(`${field}\n${upload.filename ?? ""}\n`)
        .update(upload.bytes)
        .digest();
      req.body = undefined;
      next();
    });
  };
}
