/**
 * Path parameters, query and body checked against the route's zod schemas; a failure is one
 * 400 invalid_parameter whose details.fields names every bad field.
 */
import type { RequestHandler } from "express";
import type { z } from "zod";
import { invalidParameter, type FieldIssue } from "../../../http/errors/index.ts";

export interface RequestSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

export interface ValidatedInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

function issuesOf(where: string, error: z.ZodError): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
    const path = [where, ...issue.path.map(String)].join(".");
    if (keys.length > 0) {
      // one entry per unknown field, each a field path of its own
      return keys.map((key) => ({
        field: `${path}.${key}`,
        code: "unknown_field",
        message: `unknown field ${JSON.stringify(key)}`,
      }));
    }
    // a custom issue may name its own rule (a kernel validator's: at_most_half_diameter, ...)
    const rule = issue.code === "custom" && typeof issue.params?.rule === "string" ? issue.params.rule : issue.code;
    return [{ field: path, code: rule, message: issue.message }];
  });
}

export function validate(schemas: RequestSchemas): RequestHandler {
  return (req, res, next) => {
    const issues: FieldIssue[] = [];
    const input: ValidatedInput = { params: {}, query: {}, body: undefined };
    for (const [where, key, value] of [
      ["path", "params", req.params],
      ["query", "query", req.query],
      ["body", "body", req.body],
    ] as const) {
      const schema = schemas[key];
      if (!schema) continue;
      const parsed = schema.safeParse(value);
      if (parsed.success) input[key] = parsed.data;
      else issues.push(...issuesOf(where, parsed.error));
    }
    if (issues.length > 0) {
      next(invalidParameter(issues));
      return;
    }
    res.locals.input = input;
    next();
  };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      input?: ValidatedInput;
    }
  }
}
