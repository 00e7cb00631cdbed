/**
 * Request bodies checked by the kernel's validators (kernel/tools), which name every violation
 * at once with a rule code: a 400 invalid_parameter lists them as details.fields
 * [{field: "body.<path>", code: <rule>, message}]. The holder, tool and equipment library routes
 * validate with these; JSON merge patches (RFC 7396) are here because their checks are.
 */
import { z } from "zod";
import { isRecord, violationsFromZod, type Violation } from "../../kernel/tools/violation.ts";
import { invalidParameter, type FieldIssue, type HttpError } from "../../http/errors/index.ts";
import { withoutReadOnly } from "./assumed-geometry.ts";

type IssueSink = Pick<z.core.$RefinementCtx, "addIssue">;

/**
 * Adds an issue for a kernel rule ("at_most_half_diameter", "unknown_field"...): a custom issue
 * carrying the rule, which the validate middleware hands on as details.fields[].code (the rule
 * is what a client needs to see).
 */
export function addRuleIssue(ctx: IssueSink, field: string, rule: string, message: string): void {
  const path = field === "" ? [] : field.split(".");
  ctx.addIssue({ code: "custom", path, message, params: { rule } });
}

/**
 * A request schema checked by a kernel validator: violationsOf runs first on the raw input and
 * every violation it names becomes an issue at its field with its rule as code; only a clean
 * input (normalised) goes on to schema, which is what the OpenAPI document shows (a
 * preprocess step is documented as the schema after it).
 */
export function kernelChecked<T extends z.ZodType>(
  schema: T,
  violationsOf: (input: unknown) => Violation[],
  normalize: (input: unknown) => unknown = (input) => input,
  withoutReadOnlyFields: (input: unknown) => unknown = withoutReadOnly,
) {
  return z.preprocess((sent, ctx) => {
    // what the answers add (assumed, warnings) may come back with a whole item: not the client's to set
    const input = withoutReadOnlyFields(sent);
    const violations = violationsOf(input);
    for (const v of violations) addRuleIssue(ctx, v.field, v.rule, v.message);
    return violations.length > 0 ? input : normalize(input);
  }, schema);
}

/** Violations of a value the handler put together (a merged PATCH) as the 400 of the request's body. */
export function invalidBody(violations: readonly Violation[], prefix = "body"): HttpError {
  const fields: FieldIssue[] = violations.map((v) => ({
    field: v.field ? `${prefix}.${v.field}` : prefix,
    code: v.rule,
    message: v.message,
  }));
  return invalidParameter(fields);
}

/**
 * A holder or tool with its uuid lowercased (anything else as it came): item uuids are stored
 * lowercase, so that containment finds the same uuid whatever case a client wrote it in.
 */
export function normalizeItem(input: unknown): unknown {
  return isRecord(input) && typeof input.uuid === "string" ? { ...input, uuid: input.uuid.toLowerCase() } : input;
}

/**
 * JSON merge patch (RFC 7396): objects merge key by key, null removes a key, anything else
 * (arrays included) replaces what was there.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const out: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/**
 * The schema of a merge patch of objects of schema: every field optional, an optional field
 * also null (to remove it), nested objects patches of their own, arrays whole.
 */
export function mergePatchOf(schema: z.ZodObject): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const optional = field instanceof z.ZodOptional;
    const inner = (optional ? (field as z.ZodOptional<z.ZodType>).unwrap() : field) as z.ZodType;
    const patched = inner instanceof z.ZodObject ? mergePatchOf(inner) : inner;
    shape[key] = optional ? patched.nullable().optional() : patched.optional();
  }
  return z.strictObject(shape);
}

/** A merge patch body: the patch schema's violations in the kernel's words, and at least one field. */
export function patchChecked(patch: z.ZodObject) {
  return kernelChecked(
    patch,
    (input) => {
      const parsed = patch.safeParse(input);
      const violations = parsed.success ? [] : violationsFromZod(parsed.error, input);
      if (isRecord(input) && Object.keys(input).length === 0)
        violations.push({ field: "", rule: "non_empty", message: "send at least one field" });
      return violations;
    },
    normalizeItem,
  );
}
