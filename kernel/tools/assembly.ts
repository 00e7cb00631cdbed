/**
 * An assembly (spec: Assembly): the ordered stack of components that fills one tool slot,
 * spindle side first: a Holder, optional Extensions or Adapters, and the cutting tool last.
 * A component is `{component_type: "adaptive_item", adaptive_item: {...holder}}` or
 * `{component_type: "parametric_cutting_tool", parametric_cutting_tool: {...tool}}`.
 *
 * Each component is checked with its own validator (holder.ts, tool.ts) under its path, so an
 * assembly's answer names every problem of every component at once.
 *
 * `pocket_number` is the tool's T number in the shop's magazine (an extension of the spec): the
 * planner gives the assembly that number in every setup of a job (kernel/cam/planner/tool-numbers.ts).
 */
import { z } from "zod";
import { Holder, holderViolations } from "./holder.ts";
import { Tool, toolViolations } from "./tool.ts";
import { isUuid, Uuid } from "./uuid.ts";
import { finiteNumber, isRecord, uniqueViolations, violationsFromZod, type Violation } from "./violation.ts";

export const COMPONENT_TYPES = ["adaptive_item", "parametric_cutting_tool"] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

export const HolderComponent = z.strictObject({
  component_type: z.literal("adaptive_item"),
  adaptive_item: Holder.extend({ uuid: Uuid }),
});
export const ToolComponent = z.strictObject({
  component_type: z.literal("parametric_cutting_tool"),
  parametric_cutting_tool: Tool.extend({ uuid: Uuid }),
});
export const AssemblyComponent = z.discriminatedUnion("component_type", [HolderComponent, ToolComponent]);
export type AssemblyComponent = z.infer<typeof AssemblyComponent>;

/** Longer stacks than this are not assemblies but mistakes. */
export const MAX_COMPONENTS = 20;

/** The highest T number: four digits is what the controls we post for take. */
export const MAX_POCKET_NUMBER = 9999;

export const Assembly = z.strictObject({
  uuid: Uuid,
  name: z.string().trim().min(1).max(200),
  manufacturer: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(2000).optional(),
  pocket_number: z
    .number()
    .int()
    .min(1)
    .max(MAX_POCKET_NUMBER)
    .optional()
    .describe(
      "an extension: the tool's T number in the shop's magazine. The planner gives the assembly this T number, and so " +
        "its length and radius offsets (H, D), in every setup of a job; unique within a library. A Fusion 360 " +
        "library's post-process number becomes it on import",
    ),
  components: z.array(AssemblyComponent).min(1).max(MAX_COMPONENTS),
});
export type Assembly = z.infer<typeof Assembly>;

export type AssemblyValidation = { ok: true; assembly: Assembly } | { ok: false; violations: Violation[] };

/** The assembly without its components and pocket number: they are checked on their own below. */
const AssemblyShell = Assembly.extend({
  pocket_number: z.unknown().optional(),
  components: z.array(z.unknown()).min(1).max(MAX_COMPONENTS),
});

/** A whole number 1..MAX_POCKET_NUMBER, said in the shop's words rather than zod's. */
export function pocketNumberViolations(value: unknown, field = "pocket_number"): Violation[] {
  if (value === undefined) return [];
  const range = `1..${MAX_POCKET_NUMBER}`;
  if (typeof value !== "number" || !Number.isFinite(value))
    return [{ field, rule: "type", message: `must be a whole number ${range}, the tool's T number in the magazine` }];
  if (!Number.isInteger(value)) return [{ field, rule: "integer", message: `must be a whole number, is ${value}` }];
  if (value < 1 || value > MAX_POCKET_NUMBER)
    return [{ field, rule: "range", message: `must be within ${range}, is ${value}` }];
  return [];
}

interface ComponentFacts {
  index: number;
  type: ComponentType | undefined;
  item: Record<string, unknown> | undefined;
}

/** component_type, its object and nothing else; violations of the component's own shape. */
function componentFacts(component: unknown, index: number, out: Violation[]): ComponentFacts {
  const path = `components.${index}`;
  if (!isRecord(component)) {
    out.push({ field: path, rule: "type", message: "must be an object with component_type and the object it names" });
    return { index, type: undefined, item: undefined };
  }
  const type = component.component_type;
  if (type === undefined) {
    out.push({ field: `${path}.component_type`, rule: "required", message: "is required" });
    return { index, type: undefined, item: undefined };
  }
  if (type !== "adaptive_item" && type !== "parametric_cutting_tool") {
    out.push({
      field: `${path}.component_type`,
      rule: "one_of",
      message: `must be one of ${COMPONENT_TYPES.join(", ")}`,
    });
    return { index, type: undefined, item: undefined };
  }
  for (const key of Object.keys(component)) {
    if (key !== "component_type" && key !== type)
      out.push({
        field: `${path}.${key}`,
        rule: "unknown_field",
        message: `unknown field ${JSON.stringify(key)} on a ${type} component`,
      });
  }
  const item = component[type];
  if (item === undefined) {
    out.push({
      field: `${path}.${type}`,
      rule: "required",
      message: `a ${type} component carries its object under ${JSON.stringify(type)}`,
    });
    return { index, type, item: undefined };
  }
  return { index, type, item: isRecord(item) ? item : undefined };
}

/**
 * The stacking rules (besides each component's own):
 *
 * | rule                     | field                                     | violated when                                       |
 * |--------------------------|-------------------------------------------|-----------------------------------------------------|
 * | required                 | components.N.<object>.uuid                 | a component without its uuid                       |
 * | unique                   | components.N.<object>.uuid                 | the uuid of an earlier component                   |
 * | at_most_one_cutting_tool | components.N                               | a second parametric_cutting_tool                   |
 * | cutting_tool_last        | components.N                               | a cutting tool with components after it            |
 * | holder_first             | components.N.adaptive_item.stacking_group | a Holder anywhere but first (it goes into the spindle) |
 * | shank_fits_holder        | components.N.parametric_cutting_tool.tool_parameters.ShankDiameter | outside clamping_range_mm of the component above |
 */
function stackViolations(components: ComponentFacts[]): Violation[] {
  const out: Violation[] = [];
  const seen = new Map<string, number>();
  let toolIndex: number | undefined;
  for (const { index, type, item } of components) {
    if (!type) continue;
    const path = `components.${index}.${type}`;
    if (item?.uuid === undefined) {
      if (item)
        out.push({ field: `${path}.uuid`, rule: "required", message: "every component of an assembly needs its uuid" });
    } else if (isUuid(item.uuid)) {
      const key = item.uuid.toLowerCase();
      const earlier = seen.get(key);
      if (earlier !== undefined)
        out.push({ field: `${path}.uuid`, rule: "unique", message: `is also the uuid of components.${earlier}` });
      else seen.set(key, index);
    }
    if (type === "parametric_cutting_tool") {
      if (toolIndex !== undefined) {
        out.push({
          field: `components.${index}`,
          rule: "at_most_one_cutting_tool",
          message: `an assembly holds one cutting tool; components.${toolIndex} is one already`,
        });
      } else toolIndex = index;
    } else if (item?.stacking_group === "Holder" && index > 0) {
      out.push({
        field: `${path}.stacking_group`,
        rule: "holder_first",
        message: "a Holder goes into the spindle: it is the first component",
      });
    }
  }
  const last = components.length - 1;
  for (const { index, type } of components) {
    if (type === "parametric_cutting_tool" && index < last) {
      out.push({
        field: `components.${index}`,
        rule: "cutting_tool_last",
        message: "the cutting tool is the last component; holders and extensions go before it",
      });
    }
  }
  const tool = components.find((c) => c.type === "parametric_cutting_tool");
  const above = tool ? components[tool.index - 1] : undefined;
  if (tool?.item && above?.type === "adaptive_item" && above.item) {
    const shank = finiteNumber(
      isRecord(tool.item.tool_parameters) ? tool.item.tool_parameters.ShankDiameter : undefined,
    );
    const range = isRecord(above.item.clamping_range_mm) ? above.item.clamping_range_mm : undefined;
    const min = finiteNumber(range?.min);
    const max = finiteNumber(range?.max);
    if (shank !== undefined && min !== undefined && max !== undefined && (shank < min || shank > max)) {
      out.push({
        field: `components.${tool.index}.parametric_cutting_tool.tool_parameters.ShankDiameter`,
        rule: "shank_fits_holder",
        message: `a ${shank} mm shank does not fit components.${above.index} (clamps ${min}..${max} mm)`,
      });
    }
  }
  return out;
}

/** Every violation of input as an assembly, at once: its own fields, each component's, the stack's. */
export function assemblyViolations(input: unknown): Violation[] {
  const parsed = AssemblyShell.safeParse(input);
  const violations = parsed.success ? [] : violationsFromZod(parsed.error, input);
  if (isRecord(input)) violations.push(...pocketNumberViolations(input.pocket_number));
  const list: unknown[] = isRecord(input) && Array.isArray(input.components) ? input.components : [];
  const components = list.map((component, index) => componentFacts(component, index, violations));
  for (const { index, type } of components) {
    const item = isRecord(list[index]) && type ? (list[index] as Record<string, unknown>)[type] : undefined;
    if (item === undefined) continue;
    const prefix = `components.${index}.${type}`;
    violations.push(...(type === "adaptive_item" ? holderViolations(item, prefix) : toolViolations(item, prefix)));
  }
  violations.push(...stackViolations(components));
  return uniqueViolations(violations);
}

export function validateAssembly(input: unknown): AssemblyValidation {
  const violations = assemblyViolations(input);
  if (violations.length > 0) return { ok: false, violations };
  return { ok: true, assembly: Assembly.parse(input) };
}

/** The assembly's cutting tool (the last component), if it has one. */
export function assemblyCuttingTool(assembly: Assembly): Tool | undefined {
  const last = assembly.components.at(-1);
  return last?.component_type === "parametric_cutting_tool" ? last.parametric_cutting_tool : undefined;
}

/** The holders, extensions and adapters, spindle side first. */
export function assemblyHolders(assembly: Assembly): Holder[] {
  return assembly.components.flatMap((c) => (c.component_type === "adaptive_item" ? [c.adaptive_item] : []));
}

/** The holder's name (the first adaptive item, spindle side); null when the assembly has none. */
export function assemblyHolderName(assembly: Assembly): string | null {
  return assemblyHolders(assembly)[0]?.name ?? null;
}

/** How far the tool sticks out of the last holder's nose (mm): its LengthBelowHolder. */
export function assemblyStickOut(assembly: Assembly): number | undefined {
  return assemblyCuttingTool(assembly)?.tool_parameters.LengthBelowHolder;
}

/**
 * Gauge line to tool tip (mm) as the assembly gives it: the holders' gauge lengths plus the
 * stick-out. Undefined when a holder does not give its gauge length or the tool its stick-out
 * (completion.ts has the assumed values, and says they are assumed).
 */
export function assemblyGaugeLength(assembly: Assembly): number | undefined {
  const gauges = assemblyHolders(assembly).map((holder) => holder.gauge_length_mm);
  if (gauges.some((gauge) => gauge === undefined)) return undefined;
  const holders = gauges.reduce<number>((sum, gauge) => sum + gauge!, 0);
  if (!assemblyCuttingTool(assembly)) return holders;
  const stickOut = assemblyStickOut(assembly);
  return stickOut === undefined ? undefined : holders + stickOut;
}
