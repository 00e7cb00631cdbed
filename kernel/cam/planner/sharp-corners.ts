/**
 * Sharp internal corners: straight concave edges of the part along a setup's tool axis (the
 * vertical inside corners of pockets, steps and polygonal passages), where an end mill turning
 * about that axis leaves at least its own radius. The radius left is the smallest end mill of the
 * setups along the edge whose milling reached down into the edge's span; an edge no such
 * operation reached is not listed (its material is simply left, and counted).
 *
 * Each corner also gives the zone the material-left measure does not count on the surface
 * (simulation/thick-material.ts): the fillet the tool leaves touches each face r / tan(β / 2)
 * from the edge, β the free angle between the faces (90° in a pocket's corner: r).
 */
import { roundNumber } from "../../math/vec3.ts";
import type { EdgeAnalysis } from "../../features/types.ts";
import { toFrame } from "../frames.ts";
import type { PlannedSetup, SharpCorner } from "../plan-types.ts";
import type { ExcludedZone } from "../simulation/thick-material.ts";
import type { Operation, OperationKind, Vec3 } from "../types.ts";

const MILLING: ReadonlySet<OperationKind> = new Set([
  "roughing",
  "rest_roughing",
  "floor_finishing",
  "wall_finishing",
  "contour",
]);
/** an edge within 1° of a tool axis runs along it */
const ALONG = Math.cos(Math.PI / 180);

export interface SharpCorners {
  corners: SharpCorner[];
  /** per corner, its fillet region grown by `margin` */
  zones: ExcludedZone[];
}

export function sharpCorners(
  edges: readonly EdgeAnalysis[],
  setups: readonly Pick<PlannedSetup, "direction" | "wcs" | "operations">[],
  margin: number,
): SharpCorners {
  const corners: SharpCorner[] = [];
  const zones: ExcludedZone[] = [];
  for (const edge of edges) {
    if (
      edge.curve !== "line" ||
      edge.convexity !== "concave" ||
      edge.angle === null ||
      edge.faces.length !== 2 ||
      !(edge.length > 0)
    )
      continue;
    const along: Vec3 = [
      (edge.end[0] - edge.start[0]) / edge.length,
      (edge.end[1] - edge.start[1]) / edge.length,
      (edge.end[2] - edge.start[2]) / edge.length,
    ];
    let radius = Infinity;
    for (const setup of setups) {
      if (
        Math.abs(along[0] * setup.direction[0] + along[1] * setup.direction[1] + along[2] * setup.direction[2]) < ALONG
      )
        continue;
      const top = Math.max(toFrame(setup.wcs, edge.start)[2], toFrame(setup.wcs, edge.end)[2]);
      for (const operation of setup.operations) {
        if (MILLING.has(operation.kind) && operation.tool.kind === "flat" && deepestCut(operation) <= top + 1e-6)
          radius = Math.min(radius, operation.tool.diameter / 2);
      }
    }
    if (!Number.isFinite(radius)) continue;
    // the free angle between the faces, seen from outside the material
    const free = 2 * Math.PI - edge.angle;
    const reach = radius / Math.tan(Math.max(free, 1e-3) / 2);
    corners.push({
      faces: [...edge.faces],
      radius_left_mm: roundNumber(radius, 3),
      length_mm: roundNumber(edge.length, 3),
    });
    zones.push({ a: edge.start, b: edge.end, radius: reach + margin });
  }
  return { corners, zones };
}

function deepestCut(operation: Operation): number {
  let z = Infinity;
  for (const move of operation.moves) {
    if (move.kind === "linear" || move.kind === "arc") z = Math.min(z, move.to[2]);
  }
  return z;
}
