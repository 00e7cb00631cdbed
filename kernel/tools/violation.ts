/**
 * The one result shape of every validator in kernel/tools: either the parsed value or every
 * violation at once, each naming a dotted field path and a stable machine code, so that
 * POST /libraries/tools/validate can answer one 400 invalid_parameter listing all of them
 * (details.fields takes field, code = rule, message).
 */
import type { z } from "zod";

export interface Violation {
  /** dotted path from the validated object: "tool_parameters.CornerRadius", "components.1.uuid" */
  field: string;
  /** stable machine code: "required", "positive", "at_most_half_diameter", "unknown_field"... */
  rule: string;
  message: string;
}

export function joinPath(prefix: string, path: readonly PropertyKey[]): string {
  return [prefix, ...path.map(String)].filter((part) => part !== "").join(".");
}

/** Which value sits at path in input (undefined when any step is missing). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = input;
  for (const key of path) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/**
 * zod issues as violations with our rule codes. zod's own codes would leak its vocabulary into
 * the API ("invalid_type" for a missing field); these say what the client has to fix.
 */
export function violationsFromZod(error: z.ZodError, input: unknown, prefix = ""): Violation[] {
  return error.issues.flatMap((issue): Violation[] => {
    const field = joinPath(prefix, issue.path);
    const missing = issue.path.length > 0 && valueAt(input, issue.path) === undefined;
    if (
      missing &&
      (issue.code === "invalid_type" || issue.code === "invalid_value" || issue.code === "invalid_union")
    ) {
      return [{ field, rule: "required", message: "is required" }];
    }
    switch (issue.code) {
      case "unrecognized_keys":
        // one violation per unknown key, each a field of its own
        return issue.keys.map((key) => ({
          field: joinPath(field, [key]),
          rule: "unknown_field",
          message: `unknown field ${JSON.stringify(key)}`,
        }));
      case "invalid_type": {
        const value = valueAt(input, issue.path);
        if (typeof value === "number" && !Number.isFinite(value))
          return [{ field, rule: "finite", message: "must be a finite number" }];
        return [{ field, rule: "type", message: `must be of type ${issue.expected}` }];
      }
      case "invalid_value":
      case "invalid_union":
        return [{ field, rule: "one_of", message: issue.message }];
      case "invalid_format":
        return [{ field, rule: issue.format === "regex" ? "format" : issue.format, message: issue.message }];
      case "too_small":
        if (issue.origin === "string" || issue.origin === "array") {
          return [{ field, rule: Number(issue.minimum) <= 1 ? "non_empty" : "too_short", message: issue.message }];
        }
        return [{ field, rule: "range", message: issue.message }];
      case "too_big":
        return [
          {
            field,
            rule: issue.origin === "string" || issue.origin === "array" ? "too_long" : "range",
            message: issue.message,
          },
        ];
      default:
        return [{ field, rule: issue.code, message: issue.message }];
    }
  });
}

/** Drops repeats of the same (field, rule): two passes may see one problem. */
export function uniqueViolations(violations: Violation[]): Violation[] {
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${v.field}\u0000${v.rule}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A number that can take part in a physical rule (the schema reports anything else). */
export function finiteNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
