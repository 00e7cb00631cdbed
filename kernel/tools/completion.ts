/**
 * Holders, tools and assemblies with what they do not give filled in from the table of
 * assumed-geometry.ts, and the list of every value taken: the API answers it as `assumed`, and
 * the planner's cutters (kernel/cam/tooling/cutter.ts) are built from the completed assembly, so
 * its collision checks run with the same values the answer lists. Stored items keep only what
 * was given; completion runs wherever an item is shown or used.
 *
 * Field paths are the item's own (`tool_parameters.PointAngle`, `segments`) or, for an
 * assembly, under the component as the client sent it (`components.1.parametric_cutting_tool.
 * tool_parameters.PointAngle`). A holder added to an assembly that has none is `components`.
 */
import type { Assembly, AssemblyComponent } from "./assembly.ts";
import {
  ASSUMED_FLUTES,
  ASSUMED_TOOL_MATERIAL,
  assumedDepthOfCut,
  assumedFaceMillHeight,
  assumedFluteLength,
  assumedHolderProfile,
  assumedShankDiameter,
  assumedShape,
  CENTRE_DRILL_PILOT_LENGTH_PER_PILOT,
  STANDALONE_HOLDER_SHANK_MM,
  STICK_OUT_MARGIN_MM,
  unassumable,
  type AssumedValue,
  type HolderNeed,
} from "./assumed-geometry.ts";
import { segmentsLength, type Holder, type ShapedHolder } from "./holder.ts";
import type { ToolParameterName } from "./tool-parameters.ts";
import { toolFluteCount, type Tool } from "./tool.ts";
import { uuidV5 } from "./uuid.ts";

/** One value the item did not give and the planner takes: the API's `assumed` entry. */
export interface Assumption {
  field: string;
  value: unknown;
  reason: string;
}

/** Geometry that cannot be assumed: the item is kept, the planner does not use it. */
export interface GeometryWarning {
  field: string;
  code: "not_planned";
  message: string;
}

export interface ToolCompletion {
  tool: Tool;
  assumed: Assumption[];
  warnings: GeometryWarning[];
}

export interface HolderCompletion {
  holder: ShapedHolder;
  assumed: Assumption[];
}

export interface AssemblyCompletion {
  /** every component shaped, a Holder put first when the assembly has none */
  assembly: Assembly;
  /** the cutting tool completed, undefined without one */
  tool: Tool | undefined;
  /** the holders, extensions and adapters shaped, spindle side first */
  holders: ShapedHolder[];
  assumed: Assumption[];
  warnings: GeometryWarning[];
}

const deg = (value: number) => (value * Math.PI) / 180;
const round = (value: number) => Math.round(value * 1000) / 1000;
const positive = (value: number | undefined): number | undefined =>
  value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
const prefixed = <T extends { field: string }>(items: readonly T[], prefix: string): T[] =>
  items.map((item) => ({ ...item, field: `${prefix}.${item.field}` }));

/** value, at most each of the bounds the tool gives (a cut no longer than its tool or neck). */
function capped(
  assumed: AssumedValue<number>,
  bounds: Partial<Record<string, number | undefined>>,
): AssumedValue<number> {
  let { value, reason } = assumed;
  for (const [name, bound] of Object.entries(bounds)) {
    if (bound !== undefined && bound < value) {
      value = bound;
      reason = `${reason}; at most its ${name} (${bound} mm)`;
    }
  }
  return { value, reason };
}

/**
 * How far the tool cuts from its tip: FluteLength, or what its shape implies where the type has
 * none: a chamfer mill's cone from its tip to its diameter, a centre drill's pilot and
 * countersink. Read from a completed tool; undefined where neither is known.
 */
export function cuttingLength(tool: Tool): number | undefined {
  const p = tool.tool_parameters;
  const flutes = positive(p.FluteLength);
  if (flutes !== undefined) return flutes;
  const d = positive(p.CuttingDiameter);
  if (d === undefined) return undefined;
  const tip = Math.min(positive(p.TipDiameter) ?? 0, d);
  const chamfer = positive(p.ChamferAngle);
  if (tool.tool_type === "ChamferMill" && chamfer !== undefined && chamfer < 90)
    return (d - tip) / 2 / Math.tan(deg(chamfer));
  const point = positive(p.PointAngle);
  if (tool.tool_type === "CentreDrill" && point !== undefined && tip > 0)
    return (positive(p.TipLength) ?? 0) + (d - tip) / 2 / Math.tan(deg(point / 2));
  return undefined;
}

/** The tool with every parameter the planner reads and it lacks assumed. */
export function completeTool(tool: Tool): ToolCompletion {
  const type = tool.tool_type;
  const d = positive(tool.tool_parameters.CuttingDiameter);
  if (d === undefined) {
    return {
      tool,
      assumed: [],
      warnings: [
        {
          field: "tool_parameters.CuttingDiameter",
          code: "not_planned",
          message: "no positive CuttingDiameter: the planner cannot cut with it",
        },
      ],
    };
  }
  // the planner does not cut with thread mills: nothing of theirs is read
  if (type === "ThreadMill") return { tool, assumed: [], warnings: [] };
  const p = { ...tool.tool_parameters };
  const given = new Set(
    Object.entries(tool.tool_parameters).flatMap(([name, value]) => (value === undefined ? [] : [name])),
  );
  const assumed: Assumption[] = [];
  const take = (name: ToolParameterName, a: AssumedValue<number>) => {
    p[name] = a.value;
    assumed.push({ field: `tool_parameters.${name}`, value: a.value, reason: a.reason });
  };

  const missing = unassumable(type, d, given);
  const warnings: GeometryWarning[] = (missing?.names ?? []).map((name) => ({
    field: `tool_parameters.${name}`,
    code: "not_planned",
    message: `no ${name}: ${missing!.why}; the planner does not use this tool until it is given`,
  }));
  for (const [name, value] of Object.entries(assumedShape(type, d, given)) as [
    ToolParameterName,
    AssumedValue<number>,
  ][])
    take(name, value);

  const overall = positive(p.OverallLength);
  const neck = positive(p.NeckLength);
  if (type === "CentreDrill" && !given.has("TipLength") && positive(p.TipDiameter) !== undefined) {
    const pilot = round(CENTRE_DRILL_PILOT_LENGTH_PER_PILOT * p.TipDiameter!);
    take(
      "TipLength",
      capped(
        {
          value: pilot,
          reason:
            "no TipLength: 1.2 pilot diameters, shorter than DIN 333 A's (1.24 to 1.3): a longer real pilot makes a narrower spot",
        },
        { OverallLength: overall },
      ),
    );
  }
  if (!given.has("FluteLength") && type !== "SlotMill") {
    const depth = positive(p.DepthOfCutMaximum);
    const fromType = assumedFluteLength(type, d);
    if (depth !== undefined && type !== "Tap" && fromType)
      take("FluteLength", {
        value: depth,
        reason: "no FluteLength: its DepthOfCutMaximum (the flutes are at least that long)",
      });
    else if (fromType) take("FluteLength", capped(fromType, { OverallLength: overall, NeckLength: neck }));
  }
  const fluteLength = positive(p.FluteLength);
  if (!given.has("DepthOfCutMaximum") && fluteLength !== undefined && type !== "Tap" && type !== "SlotMill")
    take("DepthOfCutMaximum", assumedDepthOfCut(type, fluteLength));
  if (type === "FaceMill" && !given.has("OverallLength")) {
    const height = assumedFaceMillHeight();
    const longest = Math.max(height.value, fluteLength ?? 0, positive(p.LengthBelowHolder) ?? 0);
    take(
      "OverallLength",
      longest > height.value ? { value: longest, reason: `${height.reason}; as long as its given lengths` } : height,
    );
  }
  if (!given.has("ShankDiameter")) {
    const shank = assumedShankDiameter(type, d);
    if (shank) take("ShankDiameter", shank);
  }

  const out: Tool = { ...tool, tool_parameters: p };
  if (toolFluteCount(tool) === undefined) {
    out.flute_count = ASSUMED_FLUTES;
    assumed.push({ field: "flute_count", value: ASSUMED_FLUTES, reason: "no flute_count: 2, the lower feed" });
  }
  if (tool.tool_material === undefined) {
    out.tool_material = ASSUMED_TOOL_MATERIAL;
    assumed.push({
      field: "tool_material",
      value: ASSUMED_TOOL_MATERIAL,
      reason: "no tool_material: HSS, the slower cutting data",
    });
  }
  return { tool: out, assumed, warnings };
}

/** The holder with its profile and gauge length, assumed for need where it lacks them. */
export function completeHolder(
  holder: Holder,
  need: Omit<HolderNeed, "stacking_group" | "gauge_length_mm">,
  note = "",
): HolderCompletion {
  if (holder.segments) {
    if (holder.gauge_length_mm !== undefined)
      return { holder: { ...holder, segments: holder.segments, gauge_length_mm: holder.gauge_length_mm }, assumed: [] };
    const gauge = round(segmentsLength(holder.segments));
    return {
      holder: { ...holder, segments: holder.segments, gauge_length_mm: gauge },
      assumed: [{ field: "gauge_length_mm", value: gauge, reason: "no gauge_length_mm: the segments' summed length" }],
    };
  }
  const profile = assumedHolderProfile({
    ...need,
    stacking_group: holder.stacking_group,
    gauge_length_mm: holder.gauge_length_mm,
  });
  const assumed: Assumption[] = [{ field: "segments", value: profile.value, reason: profile.reason + note }];
  if (holder.gauge_length_mm === undefined)
    assumed.push({
      field: "gauge_length_mm",
      value: profile.gauge_length_mm,
      reason: "no gauge_length_mm: the assumed profile's length",
    });
  return { holder: { ...holder, segments: profile.value, gauge_length_mm: profile.gauge_length_mm }, assumed };
}

/**
 * A holder on its own: for the largest shank its clamping range takes, else for shanks up to
 * STANDALONE_HOLDER_SHANK_MM. In an assembly its tool's shank decides (completeAssembly).
 */
export function completeStandaloneHolder(holder: Holder): HolderCompletion {
  const shank = holder.clamping_range_mm?.max ?? STANDALONE_HOLDER_SHANK_MM;
  const note = holder.clamping_range_mm
    ? ""
    : `; on its own it is assumed to clamp shanks up to ${STANDALONE_HOLDER_SHANK_MM} mm, in an assembly the tool's shank decides`;
  return completeHolder(holder, { shank_mm: shank, tap: holder.clamping === "tapping_chuck" }, note);
}

/** The shank the holders are assumed for: the tool's, within the clamping range of the item that holds it. */
function shankFor(tool: Tool, above: Holder | undefined, assumed: Assumption[], prefix: string): number {
  const p = tool.tool_parameters;
  const shank = tool.tool_type === "FaceMill" ? p.CuttingDiameter! : (positive(p.ShankDiameter) ?? p.CuttingDiameter!);
  const range = above?.clamping_range_mm;
  const entry = assumed.find((a) => a.field === `${prefix}.tool_parameters.ShankDiameter`);
  if (!range || !entry) return shank;
  const within = Math.min(Math.max(shank, range.min), range.max);
  if (within !== shank) {
    p.ShankDiameter = within;
    entry.value = within;
    entry.reason = `${entry.reason}; within the clamping range of the holder above it (${range.min} to ${range.max} mm)`;
  }
  return within;
}

/** How far the completed tool sticks out of its holder, when the tool does not say. */
function stickOut(tool: Tool): AssumedValue<number> | null {
  const p = tool.tool_parameters;
  if (tool.tool_type === "FaceMill") {
    const body = positive(p.OverallLength);
    return body === undefined
      ? null
      : { value: body, reason: "no LengthBelowHolder: a face mill's whole body is below its arbor (OverallLength)" };
  }
  const cut = cuttingLength(tool);
  if (cut === undefined) return null;
  const neck = positive(p.NeckLength);
  const reach = neck !== undefined && positive(p.NeckDiameter) !== undefined && neck > cut ? neck : cut;
  return capped(
    {
      value: round(reach + STICK_OUT_MARGIN_MM),
      reason: `no LengthBelowHolder: its ${reach === cut ? "cutting length" : "neck"} and ${STICK_OUT_MARGIN_MM} mm, the shortest a holder allows (a longer real stick-out reaches further, never less)`,
    },
    { OverallLength: positive(p.OverallLength) },
  );
}

/** The assembly with every holder shaped and its tool completed, stick-out included. */
export function completeAssembly(assembly: Assembly): AssemblyCompletion {
  const assumed: Assumption[] = [];
  const warnings: GeometryWarning[] = [];
  const toolIndex = assembly.components.findIndex((c) => c.component_type === "parametric_cutting_tool");
  const toolComponent = assembly.components[toolIndex];
  let tool: Tool | undefined;
  let need: Omit<HolderNeed, "stacking_group" | "gauge_length_mm"> | undefined;
  if (toolComponent?.component_type === "parametric_cutting_tool") {
    const prefix = `components.${toolIndex}.parametric_cutting_tool`;
    const completed = completeTool(toolComponent.parametric_cutting_tool);
    tool = { ...completed.tool, tool_parameters: { ...completed.tool.tool_parameters } };
    assumed.push(...prefixed(completed.assumed, prefix));
    warnings.push(...prefixed(completed.warnings, prefix));
    const above = assembly.components[toolIndex - 1];
    const d = positive(tool.tool_parameters.CuttingDiameter);
    if (d !== undefined) {
      const shank = shankFor(
        tool,
        above?.component_type === "adaptive_item" ? above.adaptive_item : undefined,
        assumed,
        prefix,
      );
      need = {
        shank_mm: shank,
        tap: tool.tool_type === "Tap",
        ...(tool.tool_type === "FaceMill" ? { face_mill_diameter_mm: d } : {}),
      };
      const out = tool.tool_parameters.LengthBelowHolder === undefined ? stickOut(tool) : null;
      if (out) {
        tool.tool_parameters.LengthBelowHolder = out.value;
        assumed.push({ field: `${prefix}.tool_parameters.LengthBelowHolder`, value: out.value, reason: out.reason });
      }
    }
  }

  const components: AssemblyComponent[] = assembly.components.map((component, index) => {
    if (component.component_type === "parametric_cutting_tool")
      return index === toolIndex && tool
        ? { ...component, parametric_cutting_tool: { ...tool, uuid: component.parametric_cutting_tool.uuid } }
        : component;
    const completed = need
      ? completeHolder(component.adaptive_item, need)
      : completeStandaloneHolder(component.adaptive_item);
    assumed.push(...prefixed(completed.assumed, `components.${index}.adaptive_item`));
    return { ...component, adaptive_item: { ...completed.holder, uuid: component.adaptive_item.uuid } };
  });
  if (
    need &&
    !assembly.components.some(
      (c) => c.component_type === "adaptive_item" && c.adaptive_item.stacking_group === "Holder",
    )
  ) {
    const profile = assumedHolderProfile({ ...need, stacking_group: "Holder" });
    const holder = {
      uuid: uuidV5(assembly.uuid, "assumed holder"),
      name: "Assumed holder",
      stacking_group: "Holder" as const,
      gauge_length_mm: profile.gauge_length_mm,
      segments: profile.value,
    };
    components.unshift({ component_type: "adaptive_item", adaptive_item: holder });
    assumed.push({
      field: "components",
      value: { component_type: "adaptive_item", adaptive_item: holder },
      reason: `no Holder: one is assumed above components.0, ${profile.reason.replace(/^no segments: /, "")}`,
    });
  }
  const holders = components.flatMap((c) =>
    c.component_type === "adaptive_item" ? [c.adaptive_item as ShapedHolder] : [],
  );
  return { assembly: { ...assembly, components }, tool, holders, assumed, warnings };
}
