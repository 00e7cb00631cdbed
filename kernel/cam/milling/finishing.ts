/**
 * Finishing: walls and floors.
 *
 * Wall finishing runs wall passes (walls.ts) at exactly the tool radius + allowance_xy from every
 * wall (allowance 0: the flank touches the wall), level by level from the part's top down to
 * each floor, climb milling, with lead-in and lead-out arcs.
 *
 * Floor finishing takes each floor (an up-facing horizontal face) at its own height with no axial
 * allowance, over the positions where the tool touches the floor, while the walls keep
 * allowance_xy (so the wall passes, run afterwards, finish them without a step): each floor is
 * cleared like a roughing level (clearing.ts), so it is entered from air or with a helix, ramp or
 * short plunge through the floor stock roughing left.
 */
import { clearLevels } from "./level-clearing.ts";

import {
  makeOperation,
  refusal,
  requestWriter,
  unusableTool,
  writtenOutcome,
  type MillingOutcome,
  type MillingRequest,
} from "./operation.ts";
import { components, difference, intersection, isEmpty, offset, offsetCovering, union } from "./polygons.ts";
import { CLEARANCE_MM, nearWindows } from "./regions.ts";
import { wallPasses } from "./walls.ts";

/** how far beyond touching the floor floor finishing goes */
const FLOOR_REACH_MM = 1;

export function wallFinishing(request: MillingRequest): MillingOutcome {
  return wallPasses(request, "wall_finishing", false);
}

export function floorFinishing(request: MillingRequest): MillingOutcome {
  const { part, tool, parameters } = request;
  const unusable = unusableTool(tool, parameters);
  if (unusable) return refusal(unusable);
  const radius = tool.diameter / 2;
  const bottom = request.bottom_z ?? part.bottom_z;
  const top = request.stock.highest();
  const floors = part.floors.filter((z) => z >= bottom - 1e-9 && z <= top + 1e-9);
  if (floors.length === 0) return refusal("the part has no floor (up-facing horizontal face) below the stock's top");

  const writer = requestWriter(request);
  const found = clearLevels(request, floors, writer, ({ z, material, windows, allowed }) => {
    // where the tool's end touches the floor, and FLOOR_REACH_MM more to take in the wall
    // stock's foot (roughing's allowance_xy) and meet the air around, to come in from there
    const onFloor = intersection(allowed, offset(part.floorArea(z), radius + FLOOR_REACH_MM));
    if (isEmpty(onFloor)) return "skip";
    const air = difference(allowed, offsetCovering(nearWindows(material, windows, radius + 1), radius + CLEARANCE_MM));
    const target = union(onFloor, air);
    return components(target).filter((piece) => !isEmpty(intersection(piece, onFloor)));
  });
  const name = `Finishing floors with ${tool.name}`;
  return writtenOutcome(
    makeOperation(request, "floor_finishing", name, writer.clearance_z, writer.moves),
    writer,
    found,
    {
      failed: "no floor could be finished",
      nothingNear: "no floor has stock left on it within the tool's reach",
    },
  );
}
