/**
 * JSON bodies for the routes that take one: a size limit (413), application/json only (415),
 * malformed JSON (400 malformed_json, through the error middleware). A route without a body
 * schema does not parse one.
 */
import express, { type RequestHandler } from "express";
import { HttpError } from "../errors/index.ts";

export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, strict: false, type: () => true });
  return (req, res, next) => {
    const hasBody = Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;
    if (!hasBody) {
      req.body = undefined;
      next();
      return;
    }
    if (!req.is("application/json") && !req.is("application/*+json")) {
      next(new HttpError(415, "unsupported_media_type", "send the body as application/json", {
        content_type: req.get("content-type") ?? null,
      }));
      return;
    }
    parse(req, res, next);
  };
}
