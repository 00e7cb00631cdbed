/**
 * The holes a setup drills, taken out of the part's height field before verification: only the
 * hole the tool makes that the model's mesh does not already show, never more.
 *
 * A drill matched to a hole may be up to DRILL_OVERSIZE_MM larger than the model's diameter (the
 * tolerance class a drilled hole has: tooling/select-holes.ts), and the mesh's chords lie inside
 * the true cylinder by up to its deflection. Both put the drill's flank "into" the wall the
 * simulation sees, and a height field measures such a touch as the whole wall's height. So each
 * bore (the hole, its counterbore, its entrance) gives up the ring between its chords and its
 * circle grown by the drill's tolerance: the cells there are lowered to the bore's bottom (a
 * through bore has none). The spot drill breaks the entrance's edge by SPOT_EDGE_BREAK_MM: a
 * ring that wide, as deep, is the hole's too.
 *
 * Never past the model: inside each bore, where the mesh is the hole, the part stays what the
 * model says (the floor a through hole opens onto, a blind hole's bottom, a counterbore's
 * shoulder), and the ring is lowered no deeper than the highest of that. A tool going deeper
 * than the model's floor or shoulder, also where the recognised depth is deeper than the model,
 * is a gouge the simulation reports: carving the whole cylinder to the recognised depth (a
 * through one to nothing) had hidden a helical bore 1 mm past its exit into a floor 0.48 mm
 * under it.
 */
import { centresWithin, type Grid } from "../simulation/height-field.ts";
import type { PartHeights } from "../simulation/part-heights.ts";
import type { SetupHole } from "../holes/setup-hole.ts";
import { SPOT_EDGE_BREAK_MM } from "../holes/depths.ts";
import { DRILL_OVERSIZE_MM } from "../tooling/select-holes.ts";
import { CUTTING_MESH_DEFLECTION_MM } from "./read-part.ts";

/** How far outside its circle a bore may cut: the drill's tolerance and the mesh's chords. */
const CARVE_GROW_MM = DRILL_OVERSIZE_MM / 2 + CUTTING_MESH_DEFLECTION_MM;

/** One bore of a hole: a circle of `radius` from the hole's entrance down to `bottom` (-Infinity: through). */
interface Bore {
  radius: number;
  /** how far outside the circle its ring reaches */
  grow: number;
  bottom: number;
}

export function carveHoles(grid: Grid, part: PartHeights, holes: readonly SetupHole[]): void {
  for (const hole of holes) {
    const entrance = Math.max(hole.diameter_mm, hole.counterbore?.diameter_mm ?? 0, hole.countersink?.diameter_mm ?? 0);
    const bores: Bore[] = [
      {
        radius: hole.diameter_mm / 2,
        grow: CARVE_GROW_MM,
        bottom: hole.through ? -Infinity : hole.top_z - hole.depth_mm,
      },
      {
        radius: entrance / 2,
        grow: CARVE_GROW_MM + SPOT_EDGE_BREAK_MM,
        bottom: hole.top_z - SPOT_EDGE_BREAK_MM - CARVE_GROW_MM,
      },
    ];
    if (hole.counterbore)
      bores.push({
        radius: hole.counterbore.diameter_mm / 2,
        grow: CARVE_GROW_MM,
        bottom: hole.top_z - hole.counterbore.depth_mm,
      });
    for (const bore of bores) carveBore(grid, part, hole, bore);
  }
}

/** The bore's ring lowered to its bottom, never below the highest the model shows inside it. */
function carveBore(grid: Grid, part: PartHeights, hole: SetupHole, bore: Bore): void {
  const inner = bore.radius - CUTTING_MESH_DEFLECTION_MM;
  const outer = bore.radius + bore.grow;
  const above = hole.top_z + CUTTING_MESH_DEFLECTION_MM;
  const [i0, i1] = centresWithin(hole.at[0] - outer, hole.at[0] + outer, grid.x0, grid.dx, grid.nx);
  const [j0, j1] = centresWithin(hole.at[1] - outer, hole.at[1] + outer, grid.y0, grid.dy, grid.ny);
  // what the model shows inside the bore (inside its chords): its floor, shoulder or bottom
  let floor = -Infinity;
  forEachCell(grid, hole, [i0, i1, j0, j1], (cell, r2) => {
    const height = part.heights[cell] as number;
    if (r2 < inner * inner && height <= above && height > floor) floor = height;
  });
  const to = Math.max(bore.bottom, floor);
  forEachCell(grid, hole, [i0, i1, j0, j1], (cell, r2) => {
    // the ring between the chords and the grown circle; material above the entrance is not the hole's
    if (r2 < inner * inner || r2 > outer * outer) return;
    const height = part.heights[cell] as number;
    if (height <= above && height > to) part.heights[cell] = to;
  });
}

function forEachCell(
  grid: Grid,
  hole: SetupHole,
  [i0, i1, j0, j1]: [number, number, number, number],
  visit: (cell: number, r2: number) => void,
): void {
  for (let j = j0; j <= j1; j += 1) {
    const y = grid.y0 + (j + 0.5) * grid.dy - hole.at[1];
    for (let i = i0; i <= i1; i += 1) {
      const x = grid.x0 + (i + 0.5) * grid.dx - hole.at[0];
      visit(j * grid.nx + i, x * x + y * y);
    }
  }
}
