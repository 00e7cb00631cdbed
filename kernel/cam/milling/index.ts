/**
 * 2.5D milling toolpaths in a setup's frame (README.md). A caller builds the part's slicer once
 * per setup, starts from the stock box and feeds each operation the stock the previous ones left:
 *
 *   const part = createSlicer(soupToFrame(frame, soup));
 *   let stock = new InProcessStock(boxToFrame(frame, stockBox));
 *   const rough = roughing({ part, stock, tool, parameters });
 *   if (rough.operation) stock = stock.withCleared(rough.cleared);
 */
export { createSlicer, SHADOW_EPSILON_MM, type PartSlicer } from "./slicer.ts";
export { InProcessStock, type ClearedLayer } from "./stock.ts";
export { reach, wideBodies, zLevels, BODY_CLEARANCE_MM, type LevelSpec, type WideBody } from "./levels.ts";
export { toolCentreRegion, CLEARANCE_MM, type CentreRegionSpec } from "./regions.ts";
export { faceMilling } from "./face-milling.ts";
export { restRoughing, roughing } from "./roughing.ts";
export { floorFinishing, wallFinishing } from "./finishing.ts";
export { contour } from "./contour.ts";
export { CLEARANCE_ABOVE_STOCK_MM, type MillingOutcome, type MillingRequest, type SkippedRegion } from "./operation.ts";
export { HELIX_ANGLE_DEG, PLUNGE_MAX_DEPTH_D, RAMP_ANGLE_DEG } from "./entry.ts";
