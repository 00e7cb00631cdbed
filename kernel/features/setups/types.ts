/**
 * Setup planning for 3-axis machining: which directions reach which faces, and the fewest
 * directions of the stock (setups) that reach every machinable face. Snake_case: the JSON of
 * `cli features`.
 */
import type { Vec3 } from "../types.ts";

export interface CandidateDirection {
  /** "+Z" for the box's axes, "feature 3" for a feature's own (a hole's axis) */
  name: string;
  /** unit, from the part towards the spindle: the tool comes in against it */
  direction: Vec3;
}

export interface Setup {
  /** 0-based, in the order the plan machines them */
  index: number;
  name: string;
  direction: Vec3;
  /** machinable faces this setup is the first to reach */
  faces: number[];
  /** every machinable face this setup reaches whole */
  reached: number[];
  /** features whose every face this setup reaches */
  features: number[];
}

/** A setup the plan would have had, left out because its direction cannot be set up (SetupOptions.excluded). */
export interface LeftOutSetup extends Setup {
  /** why its direction cannot be set up */
  reason: string;
}

export interface FeatureAccess {
  feature: number;
  /** names of the candidate directions that reach every face of the feature */
  directions: string[];
}

export interface UnreachableFace {
  face: number;
  /** why, per candidate direction */
  reason: string;
}

export interface SetupPlan {
  candidates: CandidateDirection[];
  setups: Setup[];
  feature_access: FeatureAccess[];
  /** machinable faces (or parts of them) that no candidate direction reaches */
  unreachable_faces: UnreachableFace[];
  /** faces no single direction reaches whole, covered in pieces by several setups */
  split_faces: number[];
  /**
   * the setups the plan would have had without SetupOptions.excluded that it left out: `faces`
   * and `features` are what each would have made; the setups were chosen again without them
   */
  left_out: LeftOutSetup[];
  warnings: { code: string; message: string }[];
  timeMs: number;
}

export interface SetupOptions {
  /** also cover stock faces (default false: the stock's own faces need no machining) */
  includeStock?: boolean;
  /** extra candidate directions besides the box axes and the features' own */
  extraDirections?: CandidateDirection[];
  /** most samples (triangle centroids) per face; default 48 */
  samplesPerFace?: number;
  /**
   * why a candidate direction cannot be a setup (its stock exceeds the machine's travel), null
   * when it can. Such a direction is no setup; what only it reaches is unreachable, with this
   * reason. Default: every direction can.
   */
  excluded?: (candidate: CandidateDirection) => string | null;
}
