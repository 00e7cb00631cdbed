/**
 * The CAM planner's contract: the shapes that tool selection (tooling/), toolpath generation
 * (milling/, holes/), the stock simulation (simulation/) and the planner (plan.ts) hand each
 * other, and that the CAM job stores. Those the job stores are inferred from plan-schemas.ts's
 * zod schemas, where their fields are described.
 *
 * Frames. Toolpaths and simulations live in a setup's frame (frames.ts): millimetres, +Z the tool
 * axis pointing from the part to the spindle, the origin the setup's work offset (G54, G55...).
 * A point given for a tool is its tip: the lowest point on its axis (a drill's point, a ball's
 * bottom, the centre of a flat end mill's face).
 *
 * Feeds are mm/min, spindle speeds rpm, angles degrees unless a name says otherwise.
 */

import type { z } from "zod";
import type {
  ClearingRegionSchema,
  CutterKindSchema,
  CutterSchema,
  CuttingParametersSchema,
  DrillCycleSchema,
  EngagementSchema,
  FrameSchema,
  MoveSchema,
  OperationKindSchema,
  OperationSchema,
  VerificationSchema,
} from "./plan-schemas.ts";

export type { Vec3 } from "../math/vec3.ts";
export { OPERATION_KINDS } from "./plan-schemas.ts";
export type Vec2 = [number, number];

/** An orthonormal frame given in the workpiece's coordinates; y is z x x. */
export type Frame = z.infer<typeof FrameSchema>;

export type { Box3 } from "../math/box3.ts";

/**
 * A triangle soup in some frame: what milling slices and the simulation rasterises. Triangles
 * are counter-clockwise seen from outside the material.
 */
export interface TriangleSoup {
  /** x, y, z per vertex */
  positions: Float32Array;
  /** three vertex indices per triangle */
  indices: Uint32Array;
}

/** The shape of the cutting tool (plan-schemas.ts says what each kind is). */
export type CutterKind = z.infer<typeof CutterKindSchema>;
/** The cutting tool and what holds it, as toolpaths and the simulation see it: tip at z = 0, going up. */
export type Cutter = z.infer<typeof CutterSchema>;
/** One move of the tool tip, in the setup's frame (plan-schemas.ts: arcs, helices, cycles). */
export type Move = z.infer<typeof MoveSchema>;
export type DrillCycle = z.infer<typeof DrillCycleSchema>;
export type OperationKind = z.infer<typeof OperationKindSchema>;
/** Speeds, feeds and engagement of an operation (what the postprocessor and the quote read). */
export type CuttingParameters = z.infer<typeof CuttingParametersSchema>;
export type Operation = z.infer<typeof OperationSchema>;
/** A region of a roughing cleared on its own, and the clearing chosen for it. */
export type ClearingRegionReport = z.infer<typeof ClearingRegionSchema>;
/** An operation's radial and axial engagement, as the stock simulation measured it. */
export type Engagement = z.infer<typeof EngagementSchema>;
/** What the stock simulation found (per setup, and summed for a plan). */
export type Verification = z.infer<typeof VerificationSchema>;
