/**
 * Roughing and rest roughing in Z levels.
 *
 * At each level (levels.ts: stepdown apart, on every floor + allowance_z) the tool centre's
 * allowed region (regions.ts: stock grown by the radius, minus the part shadow grown by radius +
 * allowance_xy, minus where stock deeper than the stepdown or the shank and holder would be hit)
 * is split into its connected pieces, nearest first, and each is cleared from its entry outwards
 * (level-clearing.ts, clearing.ts). What the tool swept at the level becomes a cleared layer of the stock, so the
 * next level, and the next operation, knows what is left.
 *
 * Rest roughing is the same with a smaller tool on the stock a larger one left: only where
 * material is still there gets cut (the free area, where the tool touches nothing, is nearly
 * everything, and the passes grow from it into the corners).
 */
import type { OperationKind } from "../types.ts";
import { largestEngagement } from "./adaptive/parameters.ts";
import { clearLevels } from "./level-clearing.ts";
import { zLevels } from "./levels.ts";

import {
  makeOperation,
  refusal,
  requestWriter,
  unusableTool,
  writtenOutcome,
  type MillingOutcome,
  type MillingRequest,
} from "./operation.ts";
import { components, isEmpty } from "./polygons.ts";

export function roughing(request: MillingRequest): MillingOutcome {
  return roughInLevels(request, "roughing");
}

/** Roughing on what an earlier (larger) tool left: request.stock must hold its cleared layers. */
export function restRoughing(request: MillingRequest): MillingOutcome {
  if (request.stock.layers.length === 0)
    return refusal("rest roughing needs the stock an earlier roughing left (the stock has no cleared layers)");
  return roughInLevels(request, "rest_roughing");
}

function roughInLevels(asked: MillingRequest, kind: OperationKind): MillingOutcome {
  const { part, tool } = asked;
  const unusable = unusableTool(tool, asked.parameters);
  if (unusable) return refusal(unusable);
  const top = asked.stock.highest();
  if (!Number.isFinite(top)) return refusal("no stock is left to rough");
  const bottom = asked.bottom_z ?? part.bottom_z;
  const levels = zLevels({
    top,
    bottom,
    floors: part.floors,
    stepdown: asked.parameters.stepdown_mm,
    allowance_z: asked.parameters.allowance_z_mm,
  });
  // adaptive levels take more than the least engagement where shallower: the target is the largest
  const request =
    asked.adaptive?.section_mm2 === undefined
      ? asked
      : {
          ...asked,
          parameters: {
            ...asked.parameters,
            stepover_mm: largestEngagement(asked.adaptive, tool.diameter, top, levels),
          },
        };
  const { parameters } = request;
  if (levels.length === 0)
    return refusal(`nothing lies between the stock's top (${top.toFixed(3)}) and the bottom (${bottom.toFixed(3)})`);

  const writer = requestWriter(request);
  const label = `${request.adaptive ? "Adaptive " : ""}${kind === "roughing" ? "roughing" : "rest roughing"}`;
  const title = label.charAt(0).toUpperCase() + label.slice(1);
  // the writer's moves, as they grow: what is written stays as it is
  const operation = makeOperation(request, kind, `${title} with ${tool.name}`, writer.clearance_z, writer.moves);
  const notes: string[] = [];
  const unreachable: number[] = [];
  if (parameters.stepover_mm > 0.95 * tool.diameter)
    notes.push(`stepover ${parameters.stepover_mm} mm reduced to 95 % of the diameter`);

  const found = clearLevels(
    request,
    levels,
    writer,
    ({ index, z, windows, allowed }) => {
      if (!isEmpty(allowed)) return components(allowed);
      // computed whole and empty: no level below has room either (regions.ts: belowNothing)
      if (windows === null) {
        unreachable.push(...levels.slice(index));
        return "stop";
      }
      unreachable.push(z);
      return "skip";
    },
    () => request.onMoves?.(operation),
  );
  if (found.stopped) return refusal(`${kind.replace("_", " ")} stopped: not done within its work budget`);
  if (unreachable.length > 0) {
    const range =
      unreachable.length === 1
        ? `z ${fmt(unreachable[0])}`
        : `${unreachable.length} levels from z ${fmt(unreachable[0])} to ${fmt(unreachable[unreachable.length - 1])}`;
    notes.push(
      `${range}: stock left but no position within reach (stock deeper than the stepdown above it, or the neck, shank or holder would touch)`,
    );
  }
  const verb = kind === "roughing" ? "rough" : "rest rough";
  return writtenOutcome(
    operation,
    writer,
    found,
    {
      failed: `nothing to ${verb}: every region with material was skipped`,
      nothingNear: `nothing to ${verb}: no material is within the tool's reach`,
    },
    notes,
  );
}

function fmt(z: number | undefined): string {
  return (z ?? NaN).toFixed(3);
}
