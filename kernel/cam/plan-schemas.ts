/**
 * The shapes a plan is made of, as zod schemas: the one source of both the planner's types
 * (types.ts and plan-types.ts infer theirs from these) and the job format's validation
 * (kernel/job/plan.ts reads a stored plan with them). Field names are the job file's and the
 * API's (snake_case); units as types.ts says (mm, mm/min, rpm, degrees).
 */
import { z } from "zod";
import { DesignFeedbackItemSchema } from "../dfm/types.ts";
import type { Box3 } from "../math/box3.ts";
import { Vec3Schema } from "../math/vec3-schema.ts";
import { Uuid } from "../tools/uuid.ts";

export const Vec2Schema = z.tuple([z.number(), z.number()]);
const nonNegative = z.number().nonnegative();
const ids = z.array(z.number().int());

/** An orthonormal frame given in the workpiece's coordinates; y is z x x. */
export const FrameSchema = z.object({ origin: Vec3Schema, x_axis: Vec3Schema, z_axis: Vec3Schema });
/** An axis-aligned box in some frame (the stock in a setup's frame, say). */
export const Box3Schema = z.object({ min: Vec3Schema, max: Vec3Schema }) satisfies z.ZodType<Box3>;

export const DrillCycleSchema = z.object({
  kind: z.literal("drill"),
  /**
   * drill: feed to the bottom and out (G81); dwell: with a dwell at the bottom (G82);
   * peck: full retract after each peck (G83); chip_break: short retract (G73); tap: rigid
   * tapping (G84, feed = rpm x pitch)
   */
  cycle: z.enum(["drill", "dwell", "peck", "chip_break", "tap"]),
  /** hole positions (x, y) */
  at: z.array(Vec2Schema),
  /** the R plane: where feeding starts and the tool returns between holes */
  retract_z: z.number(),
  /** top of the hole (the surface the tool enters) */
  top_z: z.number(),
  /** the tip's lowest z */
  bottom_z: z.number(),
  /** peck depth (peck, chip_break), else null */
  peck_mm: z.number().positive().nullable(),
  dwell_s: nonNegative,
  feed: z.number().positive(),
});

/**
 * One move of the tool tip, in the setup's frame. Arcs lie in XY planes (G17), possibly helical
 * (z changing linearly from the start to `to`); an arc whose end is its start in XY is a full
 * turn, as G2/G3 read it. Drill cycles are kept as cycles so the postprocessors can write canned
 * cycles; the simulation expands them.
 */
export const MoveSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("rapid"), to: Vec3Schema }),
  z.object({ kind: z.literal("linear"), to: Vec3Schema, feed: z.number().positive() }),
  z.object({
    kind: z.literal("arc"),
    to: Vec3Schema,
    centre: Vec2Schema,
    clockwise: z.boolean(),
    feed: z.number().positive(),
  }),
  DrillCycleSchema,
]);

/** Kinds of operation, each a strategy of milling/ or holes/, in the order a setup runs them. */
export const OPERATION_KINDS = [
  "face_milling",
  "roughing",
  "rest_roughing",
  "floor_finishing",
  "wall_finishing",
  "surface_finishing",
  "contour",
  "spot_drilling",
  "drilling",
  "tapping",
  "helical_boring",
  "chamfering",
] as const;

export const OperationKindSchema = z.enum(OPERATION_KINDS);

/**
 * The shape of the cutting tool: a solid of revolution about the tool axis, tip at z = 0, going up.
 * flat: flat bottom, corner_radius 0 (end mills, face mills, slot mills); ball: corner_radius =
 * diameter / 2; bull: 0 < corner_radius < diameter / 2; drill: a cone of tip_angle_deg at the tip,
 * then the diameter (drills, spot drills, centre drills); chamfer: a cone widening from
 * tip_diameter at angle chamfer_angle_deg to the axis (chamfer mills); tap: cuts a thread of
 * pitch_mm, simulated as a cylinder of its core (tap drill) diameter.
 */
export const CutterKindSchema = z.enum(["flat", "ball", "bull", "drill", "chamfer", "tap"]);

/** The cutting tool and what holds it, as toolpaths and the simulation see it. */
export const CutterSchema = z.object({
  kind: CutterKindSchema,
  /** the assembly (library entry) this tool is; operations refer to tools by it */
  assembly_uuid: z.string(),
  /** the library's name for the tool, for comments and messages */
  name: z.string(),
  /** the spec's tool_type (CentreCuttingEndMill, Drill, ...) */
  tool_type: z.string(),
  /** largest cutting diameter */
  diameter: z.number().positive(),
  corner_radius: nonNegative,
  /** drills and spot drills: the included point angle */
  tip_angle_deg: z.number().nullable(),
  /** chamfer mills: flat tip diameter and the edge's angle to the axis */
  tip_diameter: nonNegative,
  chamfer_angle_deg: z.number().nullable(),
  /** taps: thread pitch */
  pitch_mm: z.number().nullable(),
  /** length of the cutting part from the tip */
  flute_length: nonNegative,
  /** deepest axial cut the tool is rated for (DepthOfCutMaximum), or flute_length */
  max_stepdown: nonNegative,
  /** the relieved neck between flutes and shank: its diameter, and its end measured from the tip (NeckLength); 0 and 0 when none */
  neck_diameter: nonNegative,
  neck_length: nonNegative,
  shank_diameter: nonNegative,
  /** tip to the holder's nose (LengthBelowHolder, the assembly's stick-out) */
  stick_out: nonNegative,
  /** cutting edges */
  flutes: z.number().int().nonnegative(),
  /** false for tools that must not plunge straight (non-centre-cutting end mills, face mills) */
  centre_cutting: z.boolean(),
  /** tool material for cutting data ("carbide", "hss", ...) */
  tool_material: z.string(),
  /**
   * The holder and its extensions from the nose upwards: each segment a cylinder (or a cone
   * from lower_diameter to upper_diameter) of its length. Empty when the assembly has no holder.
   */
  holder: z.array(z.object({ length: nonNegative, lower_diameter: nonNegative, upper_diameter: nonNegative })),
});

/** Speeds, feeds and engagement of an operation (what the postprocessor and the quote read). */
export const CuttingParametersSchema = z.object({
  spindle_rpm: nonNegative,
  feed_mm_min: nonNegative,
  plunge_feed_mm_min: nonNegative,
  /** axial depth per pass */
  stepdown_mm: nonNegative,
  /** radial engagement */
  stepover_mm: nonNegative,
  /** stock left on walls (radial) and floors (axial) for a later operation */
  allowance_xy_mm: z.number(),
  allowance_z_mm: z.number(),
  coolant: z.enum(["flood", "mist", "air", "through_tool", "off"]),
});

/** What the stock simulation found (per setup, and summed for a plan). */
export const VerificationSchema = z.object({
  /** cuts into the part deeper than the tolerance (0.01 mm) */
  gouges: z.number().int().nonnegative(),
  rapids_through_material: z.number().int().nonnegative(),
  /** shank, neck or holder touching stock or part */
  holder_collisions: z.number().int().nonnegative(),
  /**
   * moves whose flutes, neck, shank or holder come within 1 mm of a jaw, parallel or clamp; only
   * where the setup's workholding was simulated, absent otherwise (and in plans made before it)
   */
  workholding_collisions: z.number().int().nonnegative().optional(),
  /** material over the part (as seen from the setup's direction) after the setup */
  material_left_mm3: nonNegative,
  /** of the removable volume (stock over the part) */
  material_left_pct: nonNegative,
});

/**
 * How hard an operation's tool worked, as the stock simulation measured it on the stock before
 * each cutting move (simulation/engagement.ts): the radial engagement is the arc of the tool's
 * circumference in material ahead of it, as an angle and as its width across the travel (ae); the
 * axial depth (ap) is how far below the material's top the tip cuts. Maxima and 99th percentiles
 * over the length cut in material; entries (ramps, helices, plunges, and the flat pass that takes
 * off the sloped bottom a ramp or helix left) are not measured.
 */
export const EngagementSchema = z.object({
  radial_max_mm: nonNegative.describe("the widest radial engagement (ae) of any stretch cut, mm"),
  radial_p99_mm: nonNegative.describe("the radial engagement 99 % of the length cut stays within, mm"),
  radial_max_pct: nonNegative.describe("radial_max_mm as a percentage of the tool's diameter (a slot: 100)"),
  radial_p99_pct: nonNegative.describe("radial_p99_mm as a percentage of the tool's diameter"),
  angle_max_deg: nonNegative.describe("the largest arc of the circumference in material, degrees (a slot: 180)"),
  angle_p99_deg: nonNegative.describe("the arc 99 % of the length cut stays within, degrees"),
  axial_max_mm: nonNegative.describe("the deepest cut (ap) below the material's top, mm, at most the flute length"),
  cutting_length_mm: nonNegative.describe("the length of the moves measured that cut material, mm"),
  full_width_pct: nonNegative
    .optional()
    .describe("the share of cutting_length_mm engaged over 90 % of the diameter or more (full-width slotting), %"),
  full_width_deep_pct: nonNegative
    .optional()
    .describe("the share of cutting_length_mm at full width and deeper than half the diameter, %"),
  resolution_mm: nonNegative
    .optional()
    .describe("how closely the simulation's cells place a width's edge (half a cell's diagonal), mm"),
  feature_slot_pct: nonNegative
    .optional()
    .describe(
      "the share of cutting_length_mm at full width in a slot the part makes: its walls on both sides within 0.2 D of the tool, where no narrower path fits, %",
    ),
  radial_p99_beside_slots_mm: nonNegative
    .optional()
    .describe(
      "radial_p99_mm over the length cut outside those slots (what the roughing's target is compared with), mm",
    ),
});

/**
 * One region of a roughing the planner cleared on its own (planner/clearing-regions.ts): a closed
 * pocket or slot, or the open rest, with the clearing chosen for it and the times it compared.
 */
export const ClearingRegionSchema = z.object({
  clearing: z.enum(["adaptive", "offset"]).describe("how this operation clears the region"),
  closed: z.boolean().describe("a pocket or slot walled all round from top_z down; false: the open rest of the setup"),
  area_mm2: nonNegative.describe("the region's free area seen from above at top_z, mm²"),
  top_z: z.number().describe("the highest level the region is closed at (the stock's top for the open one), mm"),
  at: z.tuple([z.number(), z.number()]).describe("a point in the region (the setup's X and Y, mm)"),
  time_s: nonNegative.describe("the machining time of the region's clearing as made, s"),
  other_s: nonNegative
    .nullable()
    .describe(
      "the other clearing's machining time for the region as made, s; null where it was not made (not predicted to be faster, or past its work budget)",
    ),
});

export const OperationSchema = z.object({
  /** stable within a plan: "s0-op3" */
  id: z.string(),
  kind: OperationKindSchema,
  /** a human name: "Roughing pocket (feature 4) with 10 mm end mill" */
  name: z.string(),
  /** recognised features (ids of the part's recognition) this operation machines */
  features: ids,
  tool: CutterSchema,
  parameters: CuttingParametersSchema,
  /** clearance plane: rapids above it are free; the operation starts and ends there */
  clearance_z: z.number(),
  moves: z.array(MoveSchema),
  /**
   * the engagement the stock simulation measured for it when it was kept; absent when none of
   * its measured moves cut material (drilling) and in plans made before it was measured
   */
  engagement: EngagementSchema.optional(),
  /**
   * 3D finishing: the largest scallop (mm, along the surface's normal) its moves leave on the
   * faces it finished, measured over patches of them (simulation/scallop-left.ts); absent on
   * other operations and where no patch was finished
   */
  scallop_mm: z.number().nonnegative().optional(),
  /**
   * roughing with `clearing` "auto" where the setup has closed regions: the regions this
   * operation clears and the clearing chosen for each (an operation per clearing: "Adaptive
   * roughing with ..." and "Roughing with ..."); absent on other operations
   */
  clearing_regions: z
    .array(ClearingRegionSchema)
    .optional()
    .describe(
      'an extension: roughing with clearing "auto" in a setup with closed pockets or slots: the regions this operation clears, each with the clearing chosen for it by the machining time of both as made (docs/cam-planning.md, Clearing)',
    ),
});

export const PlanOptionsSchema = z.object({
  /** face the stock's top down to the part in each setup first */
  include_face_milling: z.boolean(),
  /** order operations from the top down (highest first) within a setup, instead of by tool */
  sort_by_height: z.boolean(),
  /**
   * the share of the part's surface (0..100 %) material thicker than the finishing tolerance may
   * be left on before the plan is incomplete (Completeness); planner/completeness.ts's
   * DEFAULT_SURFACE_LIMIT_PCT when not given
   */
  completeness_surface_limit_pct: z.number().min(0).max(100).optional(),
  /**
   * how far rapids keep from the stock and the material left, sideways and below (mm); the
   * milling's RAPID_CLEARANCE_MM (2) when not given
   */
  rapid_clearance_mm: z.number().min(0).max(50).optional(),
  /**
   * how roughing clears each level: "offset" passes a stepover apart, "adaptive" paths holding
   * the tool's radial engagement (milling/adaptive/), "auto" the planner's choice per region of
   * each roughing by the machining time (planner/region-clearing.ts); "auto" when not given
   */
  clearing: z.enum(["auto", "adaptive", "offset"]).optional(),
  /**
   * the scallop height (mm) 3D finishing of sloped and curved faces leaves between its passes;
   * planner/surface-finishing-step.ts's DEFAULT_SCALLOP_MM when not given
   */
  scallop_mm: z.number().min(0.001).max(0.5).optional(),
});

/** A tool as a setup's result lists it. */
export const ToolSummarySchema = z.object({
  number: z
    .number()
    .int()
    .positive()
    .describe(
      "T number in the job: the same tool has the same number in every setup (and so its H and D registers); the " +
        "assembly's pocket_number when its library gives one, else the lowest number no pocket number takes, in the " +
        "order the job first uses its tools",
    ),
  assembly_uuid: z.string(),
  name: z.string(),
  tool_type: z.string(),
  diameter_mm: z.number().positive(),
  corner_radius_mm: nonNegative
    .optional()
    .describe(
      "the cutter's corner radius: 0 for a flat end mill, half the diameter for a ball end mill; absent in plans made before it was given",
    ),
  holder: z
    .string()
    .nullable()
    .optional()
    .describe(
      "the holder's name (the assembly's first adaptive item); null when the assembly has none; absent in plans made before it was given",
    ),
});

/**
 * The shop's stages of a setup: what a programmer calls a setup's roughing or its holes.
 * planner/blocks.ts says which operation kinds fall into which.
 */
export const BlockKindSchema = z.enum(["facing", "roughing", "finishing", "holes", "chamfering"]);

/**
 * Consecutive operations of a setup in one stage: the level between setups and operations the
 * API's CAM job has, so a postprocessor can comment and number the stages and a user can see
 * them without reading every operation.
 */
export const BlockSchema = z.object({
  /** a UUID, named after the setup's id and the block's index (planner/blocks.ts) */
  id: Uuid,
  /** "Roughing"; "Roughing 1", "Roughing 2" when the stage recurs in the setup */
  name: z.string(),
  /** 0-based, the order the blocks run within the setup */
  index: z.number().int().nonnegative(),
  kind: BlockKindSchema,
  /** the block's operations, in the order they run */
  operation_ids: z.array(z.string()),
});

/**
 * How a setup is held, as the setter needs it (issue 35): what holds it, the solids a tool must
 * clear as boxes in the setup's frame (mm), and what is clamped. A vise gives two `jaws` (the
 * fixed one first) and its parallels as `supports`; a fixture plate, or the machine's table,
 * gives itself as the one `supports` box and its `clamps`.
 */
export const WorkholdingSummarySchema = z.object({
  type: z
    .enum(["vise", "fixture_plate", "machine_table"])
    .describe(
      "what holds the setup: the machine's workholding (a vise or a fixture plate), or its table with edge clamps " +
        "where that cannot",
    ),
  soft_jaws: z
    .boolean()
    .describe("jaws machined to the part's profile hold it (only where the workholding allows them)"),
  jaws: z
    .array(Box3Schema)
    .describe("a vise's jaws, the fixed one first, as boxes {min, max} in the setup's WCS (mm); empty for a plate"),
  supports: z
    .array(Box3Schema)
    .describe("the parallels the stock stands on, as boxes in the setup's WCS (mm); empty on the ways or a plate"),
  clamps: z.array(Box3Schema).describe("a fixture plate's clamps, as boxes in the setup's WCS (mm); empty for a vise"),
  grip_axis: z
    .enum(["x", "y"])
    .describe('the setup axis the jaws close along: "y" when they grip the faces across the setup\'s y'),
  grip_mm: nonNegative.describe("how deep the jaws (or clamps) hold the stock, mm"),
  parallel_height_mm: nonNegative.describe(
    "the parallels' height, mm; 0 when the stock stands on the vise's ways or the plate",
  ),
  opening_mm: nonNegative.nullable().describe("the jaw opening to set, mm; null for a fixture plate"),
  stick_out_mm: z.number().describe("the stock's top above the jaws' (or clamps') top, mm"),
  clamped: z
    .object({
      description: z
        .string()
        .describe(
          'what is clamped, in words, the sides named as the workpiece\'s: "the blank\'s -Y and +Y sides below the part", "the part\'s -Z and +Z sides (faces 12 and 31), finished in setup +X"',
        ),
      grips: z.enum(["stock", "part"]).describe("the blank (stock no earlier setup cut there) or faces of the part"),
      faces: ids.describe("the part faces the jaws hold (face ids); empty when they hold the blank"),
      features: ids.describe("the recognised features those faces belong to"),
    })
    .describe("what the jaws or clamps hold"),
  orientation: z
    .object({
      up: z.string().describe('the part\'s side towards the spindle, as a workpiece axis: "+Z", "-Y"'),
      right: z.string().describe("the part's side towards the machine's +X (the setup's x)"),
      back: z
        .string()
        .describe("the part's side towards the machine's +Y (the setup's y): the fixed jaw's when gripping across y"),
    })
    .optional()
    .describe("how the part lies in the workholding, in its own sides; absent in plans made before it was given"),
});

export const PlannedSetupSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** 0-based, the order the shop runs them */
  index: z.number().int().nonnegative(),
  /** tool axis in workpiece coordinates, from the part towards the spindle */
  direction: Vec3Schema,
  /** the work coordinate system in workpiece coordinates (kernel/cam/frames.ts says where) */
  wcs: FrameSchema,
  /** the register the machine's control selects for the setup (kernel/machines/work-offsets.ts) */
  work_offset: z.string(),
  /** the stock box in the setup's frame */
  stock: Box3Schema,
  machining_time_s: nonNegative,
  /** the operations in their stages: each operation in exactly one block, in operation order */
  blocks: z.array(BlockSchema),
  operations: z.array(OperationSchema),
  tools: z.array(ToolSummarySchema),
  verification: VerificationSchema,
  /** how the setup is held; absent in plans made before the planner clamped its setups */
  workholding: WorkholdingSummarySchema.optional(),
});

export const WarningSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .optional()
    .describe(
      'the warning\'s figures, by code: stock_allowance_needed gives `axis` (the workpiece axis the stock must grow along, "-Z"), `given_mm`, `needed_mm` and `missing_mm`; ' +
        "tool_number_conflict (two assemblies of the job with one pocket number) gives `number`, the one used first that keeps it " +
        "(`kept_assembly_uuid`, `kept_name`) and the other (`renumbered_assembly_uuid`, `renumbered_name`) with its number in the job, `renumbered_to`; " +
        "engagement_over_target (a roughing or rest roughing whose measured radial engagement's 99th percentile exceeds the stepover by more than 10 %) gives " +
        "`operation_id`, `setup`, `p99_mm`, `p99_pct` (of the tool's diameter), `max_mm` and `target_mm`; " +
        "spindle_limited_tool (a tool whose recommended cutting speed needs more rpm than the machine has, one per tool and setup) gives " +
        "`setup`, `tool`, `recommended_rpm`, `max_spindle_rpm`, `vc_m_min` (the cutting speed it runs at), `recommended_vc_m_min`, " +
        "`seconds` (its milling operations in the setup) and `seconds_longer` (over their time at the recommended speed)",
    ),
});

/** Something the plan does not machine, and why (a user can act on it). */
export const UnmachinedSchema = z.object({
  code: z.string(),
  message: z.string(),
  /** recognised features concerned */
  features: ids,
  /** part faces concerned (face ids of the workpiece's B-rep) */
  faces: ids,
  /** material left there, when measured */
  volume_mm3: z.number().nullable(),
});

/** A sharp internal corner no rotating tool makes: listed, but not by itself a reason the plan is incomplete. */
export const SharpCornerSchema = z.object({
  faces: ids.describe("the two part faces that meet in the corner"),
  radius_left_mm: nonNegative.describe("the radius the smallest end mill that reaches it leaves there"),
  length_mm: nonNegative,
});

/** A tool the plan would have used had the library held it. */
export const ToolMissingSchema = z.object({
  tool_type: z.string(),
  diameter_mm: nonNegative,
  purpose: z.string().describe('what it was for: "drill feature 12"'),
  features: ids,
});

/** A setup direction the plan leaves out (no toolpath survived, or its stock exceeds the travel), and what it was for. */
export const SetupLeftOutSchema = z.object({
  name: z.string(),
  direction: Vec3Schema,
  reason: z.string().describe("no_toolpaths, exceeds_travel"),
  message: z.string(),
  /**
   * exceeds_travel: the features and faces it would have made that no setup that fits makes (the
   * setups that fit take over the rest). The faces are also in the setup plan's unreachable_faces
   * (face_unreachable entries) and the holes among the features in hole_unreachable entries: count
   * each once
   */
  features: ids,
  faces: ids,
});

/** One failed criterion of completeness, with its figures in words. */
export const CompletenessReasonSchema = z.object({
  code: z.enum(["material_left", "hole_not_made", "face_unreachable", "workholding_unavailable"]),
  message: z.string(),
});

/**
 * How complete the plan is, in figures. `incomplete` when any hole is not made, any face is
 * unreachable, a setup is left out because the workholding cannot hold it, or material thicker
 * than the finishing tolerance is left (sharp corners aside) on more than
 * `material_left.surface_limit_pct` of the part's surface. The task still succeeds: the
 * plan is what the library and the part allow, and this says what it lacks.
 */
export const CompletenessSchema = z.object({
  status: z.enum(["complete", "incomplete"]),
  reasons: z
    .array(CompletenessReasonSchema)
    .describe("one per failed criterion, with its figures; empty when complete"),
  material_left: z.object({
    volume_mm3: nonNegative.describe("material left thicker than tolerance_mm"),
    pct_of_removable: nonNegative.describe("of the volume to remove (stock minus part)"),
    surface_pct: nonNegative.describe(
      "share of the part's surface under material thicker than tolerance_mm, sharp corners excepted",
    ),
    surface_limit_pct: z.number().min(0).max(100).describe("the plan is incomplete when surface_pct is above this"),
    tolerance_mm: nonNegative.describe("the finishing tolerance: thinner material is not left"),
  }),
  holes_not_made: ids.describe("feature ids of holes the plan does not make whole"),
  faces_unreachable: ids.describe("face ids no setup reaches"),
  operations_dropped: z.number().int().nonnegative().describe("operations the verification dropped"),
  tools_missing: z.array(ToolMissingSchema).describe("tools the plan would have used had the library held them"),
  setups_left_out: z.array(SetupLeftOutSchema).describe("setups the plan leaves out, and what they were for"),
  sharp_corners: z
    .array(SharpCornerSchema)
    .describe("internal corners no rotating tool makes sharp: listed, not a reason for incomplete"),
});

/** What the planner gives (kernel/job/plan.ts checks a result with it, and its blocks against its operations). */
export const PlanResultSchema = z.object({
  machining_time_s: nonNegative,
  warnings: z.array(WarningSchema),
  unmachined: z.array(UnmachinedSchema),
  setups: z.array(PlannedSetupSchema),
  completeness: CompletenessSchema,
  /** what in the part's design is hard or impossible to machine (kernel/dfm); absent in plans made before it was measured */
  design_feedback: z.array(DesignFeedbackItemSchema).optional(),
});
