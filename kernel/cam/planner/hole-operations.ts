/**
 * Hole making and chamfering of one setup, after its milling: spot drilling, drilling (or
 * pre-drilling and reaming), helical boring where no drill fits, counterbores, countersinks,
 * tapping, then the chamfers. Holes sharing a tool share an operation, in nearest-neighbour
 * order (holes/order.ts).
 *
 * Between holes the tool travels at the R plane over the highest stock the milling left: safe
 * over any material in between, at the price of a few millimetres of extra travel per hole. The
 * R plane is R_PLANE_CLEARANCE_MM (2 mm) over it, or the plan's rapid clearance when that is more.
 */
import type { Feature } from "../../features/recognition/types.ts";
import { chamferEdges } from "../holes/chamfer-edges.ts";
import { chamferOperation, chamferPaths, countersinkOperation } from "../holes/chamfer.ts";
import { drillingOperation, spotDrillingOperation, tappingOperation } from "../holes/drilling.ts";
import { boreForHole, counterboreFor, helicalBoringOperation } from "../holes/helical.ts";
import type { SetupHole } from "../holes/setup-hole.ts";
import { clearancePlane } from "../milling/operation.ts";
import type { InProcessStock } from "../milling/stock.ts";
import { cuttingParametersFor } from "../tooling/feeds.ts";
import { missingChamferMill, toolMissingEntry } from "../tooling/missing.ts";
import {
  CHAMFER_ANGLE_TOLERANCE_DEG,
  holeNeedFor,
  mm,
  selectChamferMill,
  selectHoleTools,
  type HoleTools,
  type Refusal,
} from "../tooling/select.ts";
import { coneHeightAt } from "../cutter-shape.ts";
import {
  CHAMFER_EDGE_CLEARANCE_MM,
  drillTipDepth,
  R_PLANE_CLEARANCE_MM,
  spotDiameterFor,
  spotTipDepth,
  tapTipDepth,
} from "../holes/depths.ts";
import type { Box3, Cutter, Operation, OperationKind } from "../types.ts";
import type { PlanInput } from "../plan-types.ts";
import type { DraftOperations } from "./milling-operations.ts";
import { holeBlocked, WORKHOLDING_KEEP_OUT_MM, type ToolDown } from "./keep-out.ts";
import type { SetupPart } from "./setup-part.ts";
import { spindleLimitTold } from "./spindle-limited.ts";

type ToolRole = "spot" | "drill" | "reamer" | "end_mill" | "counterbore" | "countersink" | "tap";

/** A setup's hole and chamfer operations, and per hole the operations that make it. */
export interface HoleOperations extends DraftOperations {
  /**
   * per hole of the setup (feature id): the ids of the operations that make it, every one of its
   * tools' (spot drilling aside), or null when the library has no tool for it or for its
   * counterbore, countersink or thread. The hole is made when all of them are kept.
   */
  makers: Map<number, string[] | null>;
}

export function holeOperations(
  setup: SetupPart,
  cutters: readonly Cutter[],
  input: PlanInput,
  stock: InProcessStock,
  nextId: () => string,
): HoleOperations {
  const draft: HoleOperations = { operations: [], unmachined: [], warnings: [], tools_missing: [], makers: new Map() };
  const keepOut = setup.keepOut ?? [];
  // a refusal naming the tool that would have done is that tool missing; else it stands as it is
  const refused = (refusal: Refusal, feature: Feature): void => {
    const where = { features: [feature.id], faces: feature.faces };
    if (refusal.missing === undefined) {
      draft.unmachined.push({ code: refusal.code, message: refusal.message, ...where, volume_mm3: null });
      return;
    }
    draft.unmachined.push(toolMissingEntry(refusal.missing, where, refusal.message));
    draft.tools_missing.push(refusal.missing);
  };
  const rapidClearance = input.options.rapid_clearance_mm;
  const clearance = clearancePlane(setup.stock.max[2], rapidClearance);
  const materialTop = Math.min(stock.highest(), setup.stock.max[2]);
  // the R planes stand R_PLANE_CLEARANCE_MM over the highest material; a larger rapid clearance
  // lifts them by the difference, so the rapids between holes keep it too
  const lift = Math.max(0, (rapidClearance ?? 0) - R_PLANE_CLEARANCE_MM);
  const common = {
    clearance_z: clearance,
    material_top_z: (Number.isFinite(materialTop) ? materialTop : setup.stock.max[2]) + lift,
  };
  const params = (tool: Cutter, kind: OperationKind) => {
    const result = cuttingParametersFor(tool, input.material_id, input.machine, kind);
    for (const clamp of result.clamps) {
      if (clamp.code === "max_spindle_rpm" && spindleLimitTold(kind)) continue;
      draft.warnings.push({ code: `feeds_${clamp.code}`, message: clamp.message });
    }
    return result.parameters;
  };

  // every hole's tools, then the holes grouped by the tool of each role
  const byRole = new Map<ToolRole, Map<Cutter, { hole: SetupHole; tools: HoleTools }[]>>();
  const features = new Map(setup.features.map((f) => [f.id, f]));
  for (const hole of setup.holes) {
    const feature = features.get(hole.feature_id) as Feature;
    const recognised = holeNeedFor(feature);
    if (recognised === null) continue;
    // the hole as this setup makes it (a through hole counterbored at both ends: its half)
    const need = {
      ...recognised,
      depth_mm: hole.depth_mm,
      through: hole.through,
      counterbore: hole.counterbore,
      countersink: hole.countersink,
      drill_point_angle_deg: hole.drill_point_angle_deg,
    };
    const tools = selectHoleTools(cutters, need);
    // a tool that would come into the workholding makes nothing of the hole here: it is left
    // whole (a through hole is not made shorter) for a setup that reaches it without
    const blocked = tools.ok && keepOut.length > 0 ? blockingTool(hole, tools, keepOut) : null;
    draft.makers.set(feature.id, tools.ok && tools.unmachined.length === 0 && blocked === null ? [] : null);
    if (!tools.ok) {
      refused(tools, feature);
      continue;
    }
    if (blocked !== null) {
      draft.unmachined.push({
        code: "workholding_blocks_hole",
        message: `setup ${setup.name}: ${feature.class.replaceAll("_", " ")} ${feature.id} is not made: the ${blocked.tool.name} (${blocked.role}) would come within ${mm(WORKHOLDING_KEEP_OUT_MM)} mm of the workholding (z ${mm(blocked.box.min[2])} to ${mm(blocked.box.max[2])} with that clearance)`,
        features: [feature.id],
        faces: feature.faces,
        volume_mm3: null,
      });
      continue;
    }
    for (const refusal of tools.unmachined) refused(refusal, feature);
    draft.warnings.push(...tools.warnings);
    draft.tools_missing.push(...tools.missing);
    for (const role of ROLES) {
      const tool = tools[role];
      if (tool === null) continue;
      const group = byRole.get(role) ?? new Map<Cutter, { hole: SetupHole; tools: HoleTools }[]>();
      byRole.set(role, group);
      group.set(tool, [...(group.get(tool) ?? []), { hole, tools }]);
    }
  }
  type RoleHoles = { hole: SetupHole; tools: HoleTools }[];
  /** what every hole operation takes: its id, its tool and the tool's cutting data, the heights */
  type OperationBase = { id: string; cutter: Cutter; parameters: ReturnType<typeof params> } & typeof common;
  /** one operation per tool of the role, for the holes that tool serves */
  const each = (role: ToolRole, kind: OperationKind, make: (base: OperationBase, holes: RoleHoles) => Operation) => {
    for (const [tool, holes] of byRole.get(role) ?? []) {
      const operation = make({ id: nextId(), cutter: tool, parameters: params(tool, kind), ...common }, holes);
      draft.operations.push(operation);
      // a hole not spotted is still a hole
      if (role !== "spot") for (const { hole } of holes) draft.makers.get(hole.feature_id)?.push(operation.id);
    }
  };
  const holesOf = (holes: RoleHoles) => holes.map((h) => h.hole);
  each("spot", "spot_drilling", (base, holes) =>
    spotDrillingOperation({
      ...base,
      holes: holesOf(holes),
      drill_diameter_mm: (hole) => holes.find((h) => h.hole === hole)?.tools.drill?.diameter ?? hole.diameter_mm,
    }),
  );
  each("drill", "drilling", (base, holes) => drillingOperation({ ...base, holes: holesOf(holes) }));
  each("reamer", "drilling", (base, holes) => drillingOperation({ ...base, holes: holesOf(holes) }));
  each("end_mill", "helical_boring", (base, holes) =>
    helicalBoringOperation({ ...base, bores: holes.map((h) => boreForHole(h.hole)) }),
  );
  each("counterbore", "helical_boring", (base, holes) =>
    helicalBoringOperation({
      ...base,
      bores: holes.flatMap((h) => {
        const bore = counterboreFor(h.hole);
        return bore ? [bore] : [];
      }),
      name: `Counterboring ${holes.length} ${holes.length === 1 ? "hole" : "holes"} with ${base.cutter.name}`,
    }),
  );
  each("countersink", "chamfering", (base, holes) => countersinkOperation({ ...base, holes: holesOf(holes) }));
  each("tap", "tapping", (base, holes) => tappingOperation({ ...base, holes: holesOf(holes) }));

  for (const feature of setup.features.filter((f) => f.class === "chamfer")) {
    const edges = chamferEdges(setup.soup, setup.triangleFaces, feature.faces);
    if (!edges.ok) {
      draft.unmachined.push({
        code: `chamfer_${edges.code}`,
        message: `chamfer (feature ${feature.id}) in setup ${setup.name}: ${edges.message}`,
        features: [feature.id],
        faces: feature.faces,
        volume_mm3: null,
      });
      continue;
    }
    const ref = { id: feature.id, class: feature.class };
    const { angle_to_axis_deg, width_mm } = edges.edges;
    const mill = selectChamferMill(cutters, { feature: ref, angle_to_axis_deg, width_mm });
    if (!mill.ok) {
      const radial_mm = width_mm * Math.sin((angle_to_axis_deg * Math.PI) / 180);
      const wanted = missingChamferMill(
        { feature: ref, angle_to_axis_deg, radial_mm, angle_tolerance_deg: CHAMFER_ANGLE_TOLERANCE_DEG },
        `chamfer edges ${mm(width_mm)} mm wide`,
      );
      refused(wanted === null ? mill : { ...mill, missing: wanted }, feature);
      continue;
    }
    const paths = chamferPaths(edges.edges, mill.cutter);
    for (const skipped of paths.skipped) {
      draft.unmachined.push({
        code: "chamfer_chain_skipped",
        message: `chamfer (feature ${feature.id}): ${skipped.message}`,
        features: [feature.id],
        faces: feature.faces,
        volume_mm3: null,
      });
    }
    if (paths.paths.length === 0) continue;
    draft.operations.push(
      chamferOperation({
        id: nextId(),
        cutter: mill.cutter,
        parameters: params(mill.cutter, "chamfering"),
        edges: edges.edges,
        features: [feature.id],
        ...common,
      }),
    );
  }
  return draft;
}

const ROLES = ["spot", "drill", "reamer", "end_mill", "counterbore", "countersink", "tap"] as const;

/** The first of a hole's tools that would come into a box of `keepOut`, and the box; null when none does. */
function blockingTool(
  hole: SetupHole,
  tools: HoleTools,
  keepOut: readonly Box3[],
): { tool: Cutter; role: ToolRole; box: Box3 } | null {
  for (const role of ROLES) {
    const tool = tools[role];
    if (tool === null) continue;
    const down = toolDown(hole, role, tool, tools);
    if (down === null) continue;
    const box = holeBlocked(down, keepOut);
    if (box !== null) return { tool, role, box };
  }
  return null;
}

/**
 * Where a hole's tool of `role` goes, with the depths the operations cut to (holes/depths.ts):
 * its axis, the radius it sweeps (a helical bore's the bore's; a countersink's orbit plus the
 * tool's), its lowest tip.
 */
function toolDown(hole: SetupHole, role: ToolRole, tool: Cutter, tools: HoleTools): ToolDown | null {
  const at = hole.at;
  switch (role) {
    case "spot": {
      const spot = spotDiameterFor(tools.drill?.diameter ?? hole.diameter_mm, tool);
      return { at, radius: tool.diameter / 2, tip_z: hole.top_z - spotTipDepth(tool, spot) };
    }
    case "drill":
    case "reamer":
      return { at, radius: tool.diameter / 2, tip_z: hole.top_z - drillTipDepth(hole, tool).depth_mm };
    case "end_mill": {
      const bore = boreForHole(hole);
      return { at, radius: bore.diameter_mm / 2, tip_z: bore.bottom_z };
    }
    case "counterbore": {
      const bore = counterboreFor(hole);
      return bore === null ? null : { at, radius: bore.diameter_mm / 2, tip_z: bore.bottom_z };
    }
    case "countersink": {
      if (hole.countersink === null) return null;
      const rTop = tool.diameter / 2 - CHAMFER_EDGE_CLEARANCE_MM;
      return {
        at,
        radius: hole.countersink.diameter_mm / 2 - rTop + tool.diameter / 2,
        tip_z: hole.top_z - coneHeightAt(tool, rTop),
      };
    }
    case "tap":
      return { at, radius: tool.diameter / 2, tip_z: hole.top_z - tapTipDepth(hole, tool) };
  }
}
