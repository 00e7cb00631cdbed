/** The zod schema of a Vec3 ([x, y, z]), for the documents and routes that carry one. */
import { z } from "zod";
import type { Vec3 } from "./vec3.ts";

export const Vec3Schema = z.tuple([z.number(), z.number(), z.number()]) satisfies z.ZodType<Vec3>;
