/**
 * The holes a setup drills, taken out of the part's height field before verification.
 *
 * A drill matched to a hole may be up to DRILL_OVERSIZE_MM larger than the model's diameter (the
 * tolerance class a drilled hole has: tooling/select-holes.ts), and the mesh's chords lie inside
 * the true cylinder by up to its deflection. Both put the drill's flank "into" the wall the
 * simulation sees, and a height field measures such a touch as the whole wall's height. Within
 * the hole's own circle, grown by those two allowances, from its entrance to its bottom, cutting
 * is the point: the part there is lowered to the hole's bottom (through holes: removed). The
 * spot drill breaks the entrance's edge by SPOT_EDGE_BREAK_MM: a ring that wide, as deep, is the
 * hole's too.
 */
import { centresWithin, type Grid } from "../simulation/height-field.ts";
import type { PartHeights } from "../simulation/part-heights.ts";
import type { SetupHole } from "../holes/setup-hole.ts";
import { SPOT_EDGE_BREAK_MM } from "../holes/depths.ts";
import { DRILL_OVERSIZE_MM } from "../tooling/select-holes.ts";
import { CUTTING_MESH_DEFLECTION_MM } from "./read-part.ts";

export function carveHoles(grid: Grid, part: PartHeights, holes: readonly SetupHole[]): void {
  for (const hole of holes) {
    const grow = DRILL_OVERSIZE_MM / 2 + CUTTING_MESH_DEFLECTION_MM;
    const entrance = Math.max(hole.diameter_mm, hole.counterbore?.diameter_mm ?? 0, hole.countersink?.diameter_mm ?? 0);
    const bores = [
      { radius: hole.diameter_mm / 2 + grow, bottom: hole.through ? -Infinity : hole.top_z - hole.depth_mm },
      { radius: entrance / 2 + grow + SPOT_EDGE_BREAK_MM, bottom: hole.top_z - SPOT_EDGE_BREAK_MM - grow },
    ];
    if (hole.counterbore) bores.push({ radius: hole.counterbore.diameter_mm / 2 + grow, bottom: hole.top_z - hole.counterbore.depth_mm });
    for (const bore of bores) {
      const r = bore.radius;
      const [i0, i1] = centresWithin(hole.at[0] - r, hole.at[0] + r, grid.x0, grid.dx, grid.nx);
      const [j0, j1] = centresWithin(hole.at[1] - r, hole.at[1] + r, grid.y0, grid.dy, grid.ny);
      for (let j = j0; j <= j1; j += 1) {
        const y = grid.y0 + (j + 0.5) * grid.dy - hole.at[1];
        for (let i = i0; i <= i1; i += 1) {
          const x = grid.x0 + (i + 0.5) * grid.dx - hole.at[0];
          if (x * x + y * y > r * r) continue;
          const cell = j * grid.nx + i;
          // only what lies at or below the entrance is the hole's: material above it is not
          if ((part.heights[cell] as number) <= hole.top_z + CUTTING_MESH_DEFLECTION_MM) {
            part.heights[cell] = Math.min(part.heights[cell] as number, bore.bottom);
          }
        }
      }
    }
  }
}
