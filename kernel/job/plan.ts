/**
 * The CAM plan a job keeps: the planner's result (kernel/cam/plan-types.ts PlanResult) with
 * the options it was planned with and each operation's machining time, as one document. It is
 * stored as gzip-compressed JSON (a blob of the job, and the `cam.plan` section of a .famc
 * file: docs/famc-format.md), and summarised (no moves) for the task result and the quote.
 *
 * The plan's shapes are kernel/cam/plan-schemas.ts's zod schemas, whence the planner's types
 * come too; this adds the document around them. Field names are the job file's and the API's.
 *
 * Versions: 2 added each setup's blocks, 3 the plan's completeness. A version 1 document still
 * reads with the blocks the planner would have given its operations (kernel/cam/planner/blocks.ts);
 * a version 1 or 2 document reads with completeness null: it was not measured when the plan was
 * made, and what is kept (the material left per setup counted a band along every wall) cannot
 * give it (docs/famc-format.md).
 *
 * A setup's workholding (issue 35) needed no new version: the setup schema has it as optional,
 * a document without it (older, or planned without a workholding) reads as it always did, and a
 * plan planned without one is the same bytes as before it existed. Nor did a tool's holder: it
 * is optional, and absent in older documents.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";
import { setupMachiningTime } from "../cam/machining-time.ts";
import type { PlannedBlock, PlanOptions, PlanResult } from "../cam/plan-types.ts";
import {
  BlockKindSchema,
  ClearingRegionSchema,
  CompletenessSchema,
  EngagementSchema,
  FrameSchema,
  OperationKindSchema,
  OperationSchema,
  PlannedSetupSchema,
  PlanOptionsSchema,
  PlanResultSchema,
  ToolSummarySchema,
  UnmachinedSchema,
  VerificationSchema,
  WarningSchema,
  WorkholdingSummarySchema,
} from "../cam/plan-schemas.ts";
import { blocksProblem, operationBlocks } from "../cam/planner/blocks.ts";
import { DesignFeedbackItemSchema } from "../dfm/types.ts";
import type { MachineArchetype } from "../machines/archetypes.ts";
import { Vec3Schema } from "../math/vec3-schema.ts";
import { cycleTimeS, setupTools, workOffsetFacts } from "./setup-facts.ts";

export { PlanOptionsSchema };

/** Content type of a plan blob (sql: tg_jobs__check_plan_blob). */
export const PLAN_CONTENT_TYPE = "application/vnd.swarf.cam-plan+gzip";
export const PLAN_DOCUMENT_VERSION = 3;
/** a plan decompresses to at most this much JSON (a .famc file is checked before, by its MAC) */
const MAX_PLAN_JSON_BYTES = 512 * 1024 * 1024;

const nonNegative = z.number().nonnegative();

/** The blocks must group the setup's operations: each in one block, in the order they run. */
function blocksGroupOperations(
  setup: { blocks: PlannedBlock[]; operations: { id: string }[] },
  ctx: z.RefinementCtx,
): void {
  const problem = blocksProblem(setup.blocks, setup.operations);
  if (problem)
    ctx.addIssue({ code: "custom", message: `the blocks do not group the operations: ${problem}`, path: ["blocks"] });
}

/** The planner's result, its blocks checked against its operations. */
const CheckedPlanResultSchema = PlanResultSchema.extend({
  setups: z.array(PlannedSetupSchema.superRefine(blocksGroupOperations)),
});

/** An operation as the job keeps it: the planner's, with its machining time. */
const StoredOperationSchema = OperationSchema.extend({ machining_time_s: nonNegative });
const StoredSetupSchema = PlannedSetupSchema.extend({ operations: z.array(StoredOperationSchema) });

export const CamPlan = z.object({
  version: z.literal(PLAN_DOCUMENT_VERSION),
  options: PlanOptionsSchema,
  machining_time_s: nonNegative,
  warnings: z.array(WarningSchema),
  unmachined: z.array(UnmachinedSchema),
  setups: z.array(StoredSetupSchema.superRefine(blocksGroupOperations)),
  /** null: read from a version 1 or 2 document, made before completeness was measured */
  completeness: CompletenessSchema.nullable(),
  /** the part's design feedback (kernel/dfm); absent in plans made before it was measured */
  design_feedback: z.array(DesignFeedbackItemSchema).optional(),
});
export type CamPlan = z.infer<typeof CamPlan>;
export type StoredOperation = z.infer<typeof StoredOperationSchema>;

/** Version 2: no completeness. Read, never written. */
const CamPlanVersion2 = CamPlan.omit({ completeness: true }).extend({ version: z.literal(2) });
/** Version 1: setups without blocks either. */
const CamPlanVersion1 = CamPlanVersion2.extend({
  version: z.literal(1),
  setups: z.array(StoredSetupSchema.omit({ blocks: true })),
});

function fromVersion1(plan: z.infer<typeof CamPlanVersion1>): CamPlan {
  return fromVersion2({
    ...plan,
    version: 2,
    setups: plan.setups.map((setup) => ({ ...setup, blocks: operationBlocks(setup.id, setup.operations) })),
  });
}

function fromVersion2(plan: z.infer<typeof CamPlanVersion2>): CamPlan {
  return { ...plan, version: PLAN_DOCUMENT_VERSION, completeness: null };
}

/**
 * The document a job keeps for a planner's result: checked against the schema first (a
 * PlanFormatError otherwise), then each operation timed as it runs in its setup
 * (kernel/cam/machining-time.ts: its moves from where the previous operation of the same tool
 * ended; tool changes belong to the setup's time, not to an operation's).
 */
export function camPlanOf(result: PlanResult, options: PlanOptions, machine: MachineArchetype): CamPlan {
  const parsed = CheckedPlanResultSchema.safeParse(result);
  if (!parsed.success)
    throw new PlanFormatError(`the plan does not have the expected fields: ${describeIssue(parsed.error)}`);
  return {
    version: PLAN_DOCUMENT_VERSION,
    options,
    machining_time_s: result.machining_time_s,
    warnings: result.warnings,
    unmachined: result.unmachined,
    completeness: result.completeness,
    ...(result.design_feedback === undefined ? {} : { design_feedback: result.design_feedback }),
    setups: result.setups.map((setup) => {
      const times = setupMachiningTime(setup.operations, machine).operations;
      return {
        ...setup,
        operations: setup.operations.map((operation, i) => ({ ...operation, machining_time_s: times[i]!.total_s })),
      };
    }),
  };
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".")}: ${issue.message}` : "unknown";
}

const BlockSummarySchema = z.object({
  id: z.string().describe("a UUID, stable for the plan"),
  name: z.string().describe('"Roughing"; "Roughing 1", "Roughing 2" when a stage recurs in the setup'),
  kind: BlockKindSchema.describe("the shop's stage its operations belong to"),
  operation_ids: z.array(z.string()).describe("its operations (ids of the setup's operations), in the order they run"),
});

const OperationSummarySchema = z.object({
  id: z.string(),
  kind: OperationKindSchema.describe(
    "its strategy; surface_finishing (an extension): sloped and curved faces finished in 3D with a ball or " +
      "bull-nose end mill, waterline on steep faces and parallel passes on shallow ones (docs/cam-planning.md)",
  ),
  name: z.string(),
  tool_number: z
    .number()
    .int()
    .describe("the tool's T number (its number in the setup's tools): the same for the same tool in every setup"),
  features: z.array(z.number().int()).describe("recognised features it machines"),
  machining_time_s: nonNegative.describe("its moves at the machine's feeds and rapids, without tool changes"),
  engagement: EngagementSchema.nullable()
    .optional()
    .describe(
      "an extension: how hard its tool worked, as the stock simulation measured it on the stock before each cutting " +
        "move (radial engagement as width and arc, axial depth; maxima and 99th percentiles by length cut); null when " +
        "none of its measured moves cut material (drilling) or the plan was made before engagement was measured, " +
        "absent in results summarised before then. " +
        "Roughing whose 99th percentile exceeds the stepover by more than 10 % is an engagement_over_target warning",
    ),
  scallop_mm: nonNegative
    .nullable()
    .optional()
    .describe(
      "an extension: surface_finishing (3D finishing of sloped and curved faces with a ball or bull-nose end mill) " +
        "only: the largest scallop in mm, along the surface's normal, its moves leave on the faces it finished, " +
        "measured on 0.05 mm cells over patches of them; null on other operations and where it was not measured",
    ),
  clearing_regions: z
    .array(ClearingRegionSchema)
    .nullable()
    .optional()
    .describe(
      'an extension: roughing with clearing "auto" where adaptive was predicted to be faster, in a setup with closed ' +
        "pockets or slots: the regions it clears (each closed pocket or slot, and the open rest), each with the clearing " +
        "chosen for it and the machining time of both as made; the regions going each way are an operation of their " +
        "own. null on other operations (docs/cam-planning.md, Clearing)",
    ),
});
/** An operation as the task result lists it (the job file keeps the moves). */
export type OperationSummary = z.infer<typeof OperationSummarySchema>;

/** A tool of a setup as the task result shows it: the job's number and what the setter sets it up by. */
const SetupToolSummarySchema = ToolSummarySchema.extend({
  holder: z
    .string()
    .nullable()
    .describe("the holder's name; null when the assembly has none (or the plan predates it)"),
  corner_radius_mm: nonNegative.describe("an extension, as the rest below: the cutter's corner radius"),
  flutes: z.number().int().nonnegative(),
  stick_out_mm: nonNegative.describe("tip to the holder's nose"),
  deepest_z_mm: z
    .number()
    .describe("the lowest point its tip reaches in the setup, in the setup's WCS (Z0 the stock's top)"),
});

/** A setup as the task result (and jobs.plan_summary) shows it: no moves, no cutter details. */
export const SetupSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  index: z.number().int().nonnegative().describe("0-based, the order the shop runs the setups in"),
  direction: Vec3Schema.describe("tool axis in workpiece coordinates, from the part towards the spindle"),
  wcs: FrameSchema.describe(
    "the setup's work coordinate system in the workpiece's coordinates (mm): a program's point p is " +
      "origin + p.x * x_axis + p.y * (z_axis x x_axis) + p.z * z_axis on the part",
  ),
  work_offset: z.string().describe("G54, G55, ..."),
  work_offset_origin: z
    .string()
    .describe("an extension: where the work offset's origin is on the stock, in the words the program header uses"),
  machining_time_s: nonNegative.describe("the whole setup, tool changes included"),
  blocks: z
    .array(BlockSummarySchema)
    .describe(
      "the setup's operations grouped into the shop's stages, in the order they run: every operation in exactly one block",
    ),
  operations: z.array(OperationSummarySchema),
  tools: z
    .array(SetupToolSummarySchema)
    .describe(
      "the tools the setup uses, in the order it first uses them, each with its T number in the job (the same tool " +
        "has the same number in every setup): the table the program header and the setup sheet show",
    ),
  verification: VerificationSchema.describe("the stock simulation's findings after this setup"),
  workholding: WorkholdingSummarySchema.nullable().describe(
    "how the setup is held, as the setter needs it: the jaws, parallels or clamps as boxes in the setup's WCS (mm), " +
      "the grip, the opening to set, what is clamped; null when the setup was planned without a workholding",
  ),
});
export type SetupSummary = z.infer<typeof SetupSummarySchema>;

export const PlanSummarySchema = z.object({
  machining_time_s: nonNegative,
  warnings: z.array(WarningSchema),
  unmachined: z.array(UnmachinedSchema).describe("what the plan leaves, and why"),
  setups: z.array(SetupSummarySchema),
  completeness: CompletenessSchema.nullable().describe(
    "how complete the plan is, in figures (docs/cam-planning.md, Completeness); null for a plan made before completeness was measured",
  ),
  design_feedback: z
    .array(DesignFeedbackItemSchema)
    .optional()
    .describe(
      "an extension: what in the part's design is hard or impossible to machine, found at planning (docs/quote.md, Design feedback); absent for a plan made before it was measured",
    ),
});
export type PlanSummary = z.infer<typeof PlanSummarySchema>;

export function summarisePlan(plan: CamPlan): PlanSummary {
  return {
    machining_time_s: plan.machining_time_s,
    warnings: plan.warnings,
    unmachined: plan.unmachined,
    completeness: plan.completeness,
    ...(plan.design_feedback === undefined ? {} : { design_feedback: plan.design_feedback }),
    setups: plan.setups.map((setup) => {
      const numbers = new Map(setup.tools.map((tool) => [tool.assembly_uuid, tool.number]));
      return {
        id: setup.id,
        name: setup.name,
        index: setup.index,
        direction: setup.direction,
        wcs: setup.wcs,
        work_offset: setup.work_offset,
        work_offset_origin: workOffsetFacts(setup, "").origin,
        machining_time_s: cycleTimeS(setup),
        blocks: setup.blocks.map((block) => ({
          id: block.id,
          name: block.name,
          kind: block.kind,
          operation_ids: block.operation_ids,
        })),
        operations: setup.operations.map((operation) => ({
          id: operation.id,
          kind: operation.kind,
          name: operation.name,
          tool_number: numbers.get(operation.tool.assembly_uuid) ?? 0,
          features: operation.features,
          machining_time_s: operation.machining_time_s,
          engagement: operation.engagement ?? null,
          scallop_mm: operation.scallop_mm ?? null,
          clearing_regions: operation.clearing_regions ?? null,
        })),
        tools: setupTools(plan, setup.index).map((tool) => ({
          number: tool.number,
          assembly_uuid: tool.assembly_uuid,
          name: tool.name,
          tool_type: tool.tool_type,
          diameter_mm: tool.diameter_mm,
          corner_radius_mm: tool.corner_radius_mm,
          flutes: tool.flutes,
          stick_out_mm: tool.stick_out_mm,
          holder: tool.holder,
          deepest_z_mm: tool.deepest_z,
        })),
        verification: setup.verification,
        workholding: setup.workholding ?? null,
      };
    }),
  };
}

/** A plan document that does not parse or does not have the expected fields. */
export class PlanFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlanFormatError";
  }
}

/**
 * Checks a plan against its schema: what is saved must read back (a NaN or an infinity, which
 * JSON cannot carry, fails here rather than in a later download).
 */
export function checkCamPlan(value: unknown): CamPlan {
  const parsed = CamPlan.safeParse(value);
  if (!parsed.success)
    throw new PlanFormatError(`the plan does not have the expected fields: ${describeIssue(parsed.error)}`);
  return parsed.data;
}

/** gzip-compressed UTF-8 JSON; the same plan is the same bytes. */
export function encodeCamPlan(plan: CamPlan): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(checkCamPlan(plan)), "utf8"), { level: 6 });
}

export function decodeCamPlan(bytes: Uint8Array): CamPlan {
  let json: Buffer;
  try {
    json = gunzipSync(bytes, { maxOutputLength: MAX_PLAN_JSON_BYTES });
  } catch (error) {
    throw new PlanFormatError(
      `the plan is not gzip data of at most ${MAX_PLAN_JSON_BYTES} bytes: ${(error as Error).message}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(json.toString("utf8"));
  } catch {
    throw new PlanFormatError("the plan is not JSON");
  }
  const version = versionOf(value);
  if (version === 1) {
    const parsed = CamPlanVersion1.safeParse(value);
    if (!parsed.success) throw olderPlanError(1, parsed.error);
    return fromVersion1(parsed.data);
  }
  if (version === 2) {
    const parsed = CamPlanVersion2.safeParse(value);
    if (!parsed.success) throw olderPlanError(2, parsed.error);
    return fromVersion2(parsed.data);
  }
  return checkCamPlan(value);
}

function olderPlanError(version: number, error: z.ZodError): PlanFormatError {
  return new PlanFormatError(`the version ${version} plan does not have the expected fields: ${describeIssue(error)}`);
}

function versionOf(value: unknown): unknown {
  return typeof value === "object" && value !== null && "version" in value ? value.version : undefined;
}
