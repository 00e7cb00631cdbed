/**
 * Holders and tools as the API shows them: the same objects as an assembly's components, with
 * what the answer assumed for the geometry a client left out (api/schemas/assumed-geometry.ts).
 */
import { Holder as KernelHolder } from "../../kernel/tools/holder.ts";
import { Tool as KernelTool } from "../../kernel/tools/tool.ts";
import { Uuid } from "../../kernel/tools/uuid.ts";
import { assumedAndWarningFields, assumedFields } from "./assumed-geometry.ts";

export const HOLDER_GEOMETRY =
  "gauge_length_mm and segments may be left out (the spec shows uuid, name, stacking_group and manufacturer): " +
  "a profile at least as fat and long as the common holders for the tool's shank is assumed wherever the holder is used, " +
  "and the answer lists it under assumed";
export const TOOL_GEOMETRY =
  "tool_parameters needs CuttingDiameter only: whatever else the planner reads is assumed for the tool_type on the safe " +
  "side (less reach, points and cones that cut no more than the real tool's) and listed under assumed; where no value " +
  "is safe (a chamfer mill's ChamferAngle) the tool is kept, warnings says so and the planner does not use it";

/** A holder as the API shows it: directly usable as an assembly's adaptive_item. */
export const HolderSchema = KernelHolder.extend({ uuid: Uuid, ...assumedFields }).meta({
  id: "Holder",
  description: `An adaptive item (collet chuck, Weldon holder, shell mill arbor, extension, adapter): the same object as an assembly's adaptive_item. ${HOLDER_GEOMETRY}`,
});

/** A tool as the API shows it: directly usable as an assembly's parametric_cutting_tool. */
export const ToolSchema = KernelTool.extend({ uuid: Uuid, ...assumedAndWarningFields }).meta({
  id: "Tool",
  description: `A parametric cutting tool: the same object as an assembly's parametric_cutting_tool. ${TOOL_GEOMETRY}`,
});
