/**
 * The CAM planner's contract: the shapes that tool selection (tooling/), toolpath generation
 * (milling/, holes/), the stock simulation (simulation/) and the planner (plan.ts) hand each
 * other, and that the CAM job stores.
 *
 * Frames. Toolpaths and simulations live in a setup's frame (frames.ts): millimetres, +Z the tool
 * axis pointing from the part to the spindle, the origin the setup's work offset (G54, G55...).
 * A point given for a tool is its tip: the lowest point on its axis (a drill's point, a ball's
 * bottom, the centre of a flat end mill's face).
 *
 * Feeds are mm/min, spindle speeds rpm, angles degrees unless a name says otherwise.
 */

import type { Vec3 } from "../geometry/vec3.ts";

export type { Vec3 } from "../geometry/vec3.ts";
export type Vec2 = [number, number];

/** An orthonormal frame given in the workpiece's coordinates; y is z x x. */
export interface Frame {
  origin: Vec3;
  x_axis: Vec3;
  z_axis: Vec3;
}

/** An axis-aligned box in some frame (the stock in a setup's frame, say). */
export interface Box3 {
  min: Vec3;
  max: Vec3;
}

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

/**
 * The shape of the cutting tool and what holds it, as toolpaths and the simulation see it:
 * a solid of revolution about the tool axis, tip at z = 0, going up.
 */
export type CutterKind =
  /** flat bottom: corner_radius 0 (end mills, face mills, slot mills) */
  | "flat"
  /** corner_radius = diameter / 2 */
  | "ball"
  /** 0 < corner_radius < diameter / 2 */
  | "bull"
  /** a cone of tip_angle_deg at the tip, then the diameter (drills, spot drills, centre drills) */
  | "drill"
  /** a cone widening from tip_diameter at angle chamfer_angle_deg to the axis (chamfer mills) */
  | "chamfer"
  /** a tap: cuts a thread of pitch_mm; simulated as a cylinder of its core (tap drill) diameter */
  | "tap";

export interface Cutter {
  kind: CutterKind;
  /** the assembly (library entry) this tool is; operations refer to tools by it */
  assembly_uuid: string;
  /** the library's name for the tool, for comments and messages */
  name: string;
  /** the spec's tool_type (CentreCuttingEndMill, Drill, ...) */
  tool_type: string;
  /** largest cutting diameter */
  diameter: number;
  corner_radius: number;
  /** drills and spot drills: the included point angle */
  tip_angle_deg: number | null;
  /** chamfer mills: flat tip diameter and the edge's angle to the axis */
  tip_diameter: number;
  chamfer_angle_deg: number | null;
  /** taps: thread pitch */
  pitch_mm: number | null;
  /** length of the cutting part from the tip */
  flute_length: number;
  /** deepest axial cut the tool is rated for (DepthOfCutMaximum), or flute_length */
  max_stepdown: number;
  /** the relieved neck between flutes and shank: its diameter, and its end measured from the tip (NeckLength); 0 and 0 when none */
  neck_diameter: number;
  neck_length: number;
  shank_diameter: number;
  /** tip to the holder's nose (LengthBelowHolder, the assembly's stick-out) */
  stick_out: number;
  /** cutting edges */
  flutes: number;
  /** false for tools that must not plunge straight (non-centre-cutting end mills, face mills) */
  centre_cutting: boolean;
  /** tool material for cutting data ("carbide", "hss", ...) */
  tool_material: string;
  /**
   * The holder and its extensions from the nose upwards: each segment a cylinder (or a cone
   * from lower_diameter to upper_diameter) of its length. Empty when the assembly has no holder.
   */
  holder: { length: number; lower_diameter: number; upper_diameter: number }[];
}

/**
 * One move of the tool tip, in the setup's frame. Arcs lie in XY planes (G17), possibly helical
 * (z changing linearly from the start to `to`); an arc whose end is its start in XY is a full
 * turn, as G2/G3 read it. Drill cycles are kept as cycles so the
 * postprocessors can write canned cycles; the simulation expands them.
 */
export type Move =
  | { kind: "rapid"; to: Vec3 }
  | { kind: "linear"; to: Vec3; feed: number }
  | { kind: "arc"; to: Vec3; centre: Vec2; clockwise: boolean; feed: number }
  | DrillCycle;

export interface DrillCycle {
  kind: "drill";
  /**
   * drill: feed to the bottom and out (G81); dwell: with a dwell at the bottom (G82);
   * peck: full retract after each peck (G83); chip_break: short retract (G73); tap: rigid
   * tapping (G84, feed = rpm x pitch)
   */
  cycle: "drill" | "dwell" | "peck" | "chip_break" | "tap";
  /** hole positions (x, y) */
  at: Vec2[];
  /** the R plane: where feeding starts and the tool returns between holes */
  retract_z: number;
  /** top of the hole (the surface the tool enters) */
  top_z: number;
  /** the tip's lowest z */
  bottom_z: number;
  /** peck depth (peck, chip_break), else null */
  peck_mm: number | null;
  dwell_s: number;
  feed: number;
}

/** Kinds of operation, each a strategy of milling/ or holes/, in the order a setup runs them. */
export const OPERATION_KINDS = [
  "face_milling",
  "roughing",
  "rest_roughing",
  "floor_finishing",
  "wall_finishing",
  "contour",
  "spot_drilling",
  "drilling",
  "tapping",
  "helical_boring",
  "chamfering",
] as const;

export type OperationKind = (typeof OPERATION_KINDS)[number];

/** Speeds, feeds and engagement of an operation (what the postprocessor and the quote read). */
export interface CuttingParameters {
  spindle_rpm: number;
  feed_mm_min: number;
  plunge_feed_mm_min: number;
  /** axial depth per pass */
  stepdown_mm: number;
  /** radial engagement */
  stepover_mm: number;
  /** stock left on walls (radial) and floors (axial) for a later operation */
  allowance_xy_mm: number;
  allowance_z_mm: number;
  coolant: "flood" | "mist" | "air" | "through_tool" | "off";
}

export interface Operation {
  /** stable within a plan: "s0-op3" */
  id: string;
  kind: OperationKind;
  /** a human name: "Roughing pocket (feature 4) with 10 mm end mill" */
  name: string;
  /** recognised features (ids of the part's recognition) this operation machines */
  features: number[];
  tool: Cutter;
  parameters: CuttingParameters;
  /** clearance plane: rapids above it are free; the operation starts and ends there */
  clearance_z: number;
  moves: Move[];
}

/** What the stock simulation found (per setup, and summed for a plan). */
export interface Verification {
  /** cuts into the part deeper than the tolerance (0.01 mm) */
  gouges: number;
  rapids_through_material: number;
  /** shank, neck or holder touching stock or part */
  holder_collisions: number;
  /** material over the part (as seen from the setup's direction) after the setup */
  material_left_mm3: number;
  /** of the removable volume (stock over the part) */
  material_left_pct: number;
}
