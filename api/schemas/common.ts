/** Schemas shared by several routes. */
import { z } from "zod";

export const Id = z.uuid({ error: "must be a UUID" });

export const Timestamp = z.iso.datetime({ offset: true }).describe("ISO 8601 timestamp");

export const NoQuery = z.strictObject({});

/** A boolean query parameter: exactly `true` or `false`. */
export const BooleanQuery = z
  .enum(["true", "false"], { error: "must be true or false" })
  .transform((value) => value === "true");

export function idParams<K extends string>(name: K) {
  return z.strictObject({ [name]: Id } as Record<K, typeof Id>);
}

export const ErrorEnvelope = z
  .object({
    detail: z.object({
      code: z.string().describe("machine-readable, e.g. invalid_parameter"),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
      request_id: z.string().describe("equals the X-Request-Id response header"),
    }),
  })
  .meta({ id: "Error" });
