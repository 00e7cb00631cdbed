/**
 * A benchmark's settings from its environment variables: what the schema makes of them, or one
 * error that names every variable it refused.
 */
import type { z } from "zod";

export function parseBenchSettings<S extends z.ZodType>(
  benchmark: string,
  schema: S,
  source: NodeJS.ProcessEnv,
): z.output<S> {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`invalid ${benchmark} settings:\n${lines.join("\n")}`);
  }
  return parsed.data;
}
