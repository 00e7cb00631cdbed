/**
 * Design feedback (DFM): what in a part's design makes it hard, costly or impossible to machine
 * as drawn, each item with the faces or feature it is about, what was measured and the limit it
 * breaks. The zod schema is the plan document's and the API's (`design_feedback`); field names
 * are snake_case for that reason. README.md in this folder gives each rule and its source.
 */
import { z } from "zod";
import type { PartAnalysis } from "../features/types.ts";
import type { Recognition } from "../features/recognition/types.ts";
import type { SetupPlan } from "../features/setups/types.ts";
import type { MaterialCategory } from "../materials/materials.ts";

export const DESIGN_FEEDBACK_KINDS = [
  "thin_wall",
  "deep_pocket",
  "corner_radius_below_tool",
  "corner_radius_small",
  "deep_hole",
  "face_unreachable",
  "tilted_setup",
  "thread_without_tap",
] as const;
export type DesignFeedbackKind = (typeof DESIGN_FEEDBACK_KINDS)[number];

const Quantity = z.object({ value: z.number(), unit: z.string() });

export const DesignFeedbackItemSchema = z
  .object({
    kind: z.enum(DESIGN_FEEDBACK_KINDS),
    severity: z
      .enum(["error", "warning"])
      .describe(
        "error: the shop cannot make it as drawn (with its tools, on 3 axes); warning: it can, at extra cost or risk",
      ),
    faces: z.array(z.number().int().nonnegative()).describe("part face ids (the glb's _FACE_ID) the item is about"),
    feature: z.number().int().nonnegative().nullable().describe("the recognised feature, when the item is about one"),
    measured: Quantity.nullable().describe("what was measured on the part (mm, °); null when nothing is measured"),
    limit: Quantity.nullable().describe("the limit the measured value breaks, in the same unit"),
    details: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .describe("the figures behind the limit: material, width_mm, diameter_mm, thread, direction..."),
    message_key: z.string().describe("the sentence kernel/quote/design-feedback-text.ts words it with: the kind"),
  })
  .meta({ id: "DesignFeedbackItem" });
export type DesignFeedbackItem = z.infer<typeof DesignFeedbackItemSchema>;

/** A tool of the library as the rules need it. */
export interface DfmTool {
  kind: "end_mill" | "tap" | "other";
  diameter_mm: number;
  /** how deep below the holder its cutting part reaches: flutes or a relieved neck, mm */
  reach_mm: number;
  /** taps: the thread's pitch */
  pitch_mm: number | null;
}

/** A triangle mesh of the part with each vertex's face id (the analysis's numbering). */
export interface FacedMesh {
  positions: Float32Array;
  indices: Uint32Array;
  faceIds: Uint32Array;
}

export interface DesignFeedbackInput {
  analysis: PartAnalysis;
  recognition: Recognition;
  /** null: setups were not planned; the reach rules then say nothing and corners use the box axes */
  setups: SetupPlan | null;
  mesh: FacedMesh;
  /** the material's class (wall limits); null when unknown */
  material: MaterialCategory | null;
  tools: readonly DfmTool[];
}
