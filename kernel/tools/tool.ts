/**
 * The tool (parametric cutting tool, spec: Tool) and its validation, the kernel of
 * POST /libraries/tools/validate: 204 when validateTool says ok, else 400 invalid_parameter
 * listing every violation.
 *
 * The schema is strict: an unknown field or parameter is a violation ("unknown_field"), since
 * a misspelt "CornerRadus" would otherwise be dropped and the tool checked without it. The one
 * open object is vendor_data, where an import keeps what its format carries and we do not
 * model (Fusion's post-process block, a product link), so that an export can give it back.
 */
import { z } from "zod";
import { cuttingPresetViolations, CuttingPreset } from "./cutting-data.ts";
import { TOOL_PARAMETER_NAMES, type ToolParameterName } from "./tool-parameters.ts";
import { toolRuleViolations, type ToolFacts } from "./tool-rules.ts";
import { isToolType, TOOL_TYPES } from "./tool-types.ts";
import { Uuid } from "./uuid.ts";
import { finiteNumber, isRecord, uniqueViolations, violationsFromZod, type Violation } from "./violation.ts";

export const TOOL_MATERIALS = ["carbide", "hss", "hss_cobalt", "hss_pm", "cermet", "ceramic", "pcd", "cbn"] as const;
export type ToolMaterial = (typeof TOOL_MATERIALS)[number];

/** How coolant reaches the edge: through the spindle and the tool's own channels, or from outside. */
export const COOLANT_SUPPLIES = ["external", "through_tool"] as const;

const parameterShape = Object.fromEntries(TOOL_PARAMETER_NAMES.map((name) => [name, z.number().optional()])) as Record<
  ToolParameterName,
  z.ZodOptional<z.ZodNumber>
>;

/** Numbers only; signs, ranges and what each type needs are the rules' (tool-rules.ts). */
export const ToolParameters = z.strictObject(parameterShape);
export type ToolParameters = z.infer<typeof ToolParameters>;

export const Tool = z.strictObject({
  /** required inside an assembly (assembly.ts), optional for a tool on its own */
  uuid: Uuid.optional(),
  name: z.string().trim().min(1).max(200),
  tool_type: z.enum(TOOL_TYPES),
  manufacturer: z.string().trim().min(1).max(200).optional(),
  article_number: z.string().trim().min(1).max(100).optional(),
  description: z.string().max(2000).optional(),
  flute_count: z.number().optional(),
  tool_parameters: ToolParameters,
  tool_material: z.enum(TOOL_MATERIALS).optional(),
  coating: z.string().trim().min(1).max(50).optional(),
  coolant_supply: z.enum(COOLANT_SUPPLIES).optional(),
  /** cutting direction seen from the spindle; taps and thread mills come in both */
  hand: z.enum(["right", "left"]).optional(),
  cutting_data: z.array(CuttingPreset).max(50).optional(),
  vendor_data: z.record(z.string(), z.unknown()).optional(),
});
export type Tool = z.infer<typeof Tool>;

export type ToolValidation = { ok: true; tool: Tool } | { ok: false; violations: Violation[] };

/** What the physical rules can read from any input, valid or not. */
function factsOf(input: unknown): ToolFacts {
  const tool = isRecord(input) ? input : {};
  const raw = isRecord(tool.tool_parameters) ? tool.tool_parameters : {};
  const params: Partial<Record<ToolParameterName, number>> = {};
  for (const name of TOOL_PARAMETER_NAMES) {
    const value = finiteNumber(raw[name]);
    if (value !== undefined) params[name] = value;
  }
  return {
    toolType: isToolType(tool.tool_type) ? tool.tool_type : undefined,
    present: new Set(Object.keys(raw).filter((key) => raw[key] !== undefined)),
    params,
    fluteCount: finiteNumber(tool.flute_count),
  };
}

/**
 * Every violation of input as a tool, at once: the schema's (types, unknown fields, enums) and
 * the physical rules' (tool-rules.ts, cutting-data.ts). Field paths are relative to the tool,
 * prefixed with prefix when given ("components.2.parametric_cutting_tool").
 */
export function toolViolations(input: unknown, prefix = ""): Violation[] {
  const at = (path: string) => (prefix ? `${prefix}.${path}` : path);
  const parsed = Tool.safeParse(input);
  const violations = parsed.success ? [] : violationsFromZod(parsed.error, input, prefix);
  const facts = factsOf(input);
  violations.push(...toolRuleViolations(facts).map((v) => ({ ...v, field: at(v.field) })));
  const presets = isRecord(input) && Array.isArray(input.cutting_data) ? input.cutting_data : [];
  const flutes = facts.fluteCount ?? facts.params.NumberOfFlutes;
  presets.forEach((preset, index) => {
    violations.push(
      ...cuttingPresetViolations(preset, at(`cutting_data.${index}`), facts.params.CuttingDiameter, flutes),
    );
  });
  return uniqueViolations(violations);
}

export function validateTool(input: unknown): ToolValidation {
  const violations = toolViolations(input);
  if (violations.length > 0) return { ok: false, violations };
  return { ok: true, tool: Tool.parse(input) };
}

/** The number of flutes, wherever the tool gives it. */
export function toolFluteCount(tool: Tool): number | undefined {
  return tool.flute_count ?? tool.tool_parameters.NumberOfFlutes;
}
