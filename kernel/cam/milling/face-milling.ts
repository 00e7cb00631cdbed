/**
 * Face milling: the stock's top down to the part's top (+ allowance_z), when there is stock above
 * it, in levels no more than the stepdown apart.
 *
 * Each level is zig-zag passes along the stock's longer side over its whole rectangle, an even
 * stepover apart (at most the parameters' stepover), the first and last overhanging the edges so
 * every point is covered. The tool comes down, steps over and turns outside the stock (in air),
 * so non-centre-cutting face mills never enter material axially. Zig-zag alternates climb and
 * conventional passes, the usual trade for facing. Nothing of the part is above the part's top,
 * so no pass can gouge.
 */
import { materialHeights, type Cut } from "./linking.ts";
import { zLevels } from "./levels.ts";
import {
  makeOperation,
  refusal,
  requestWriter,
  unusableTool,
  type MillingOutcome,
  type MillingRequest,
} from "./operation.ts";
import type { ClearedLayer } from "./stock.ts";
import type { Move, Vec3 } from "../types.ts";

/** how far beyond touching the stock the tool turns */
export const FACE_OVERRUN_MM = 2;

export function faceMilling(request: MillingRequest): MillingOutcome {
  const { part, tool, parameters, stock } = request;
  const unusable = unusableTool(tool, parameters);
  if (unusable) return refusal(unusable);
  const top = stock.highest();
  const target = part.top_z + parameters.allowance_z_mm;
  if (!(top > target + 1e-6)) return refusal(`no stock above the part's top (${target.toFixed(3)}): nothing to face`);
  const levels = zLevels({ top, bottom: target, floors: [], stepdown: parameters.stepdown_mm });

  const radius = tool.diameter / 2;
  const [x0, y0] = [stock.box.min[0], stock.box.min[1]];
  const [x1, y1] = [stock.box.max[0], stock.box.max[1]];
  // passes run along the longer side: u is along the passes, v across
  const alongX = x1 - x0 >= y1 - y0;
  const [u0, u1, v0, v1] = alongX ? [x0, x1, y0, y1] : [y0, y1, x0, x1];
  const width = v1 - v0;
  const passes = Math.max(1, Math.ceil(width / Math.min(parameters.stepover_mm, 0.95 * tool.diameter) - 1e-9));
  const step = width / passes;
  const ends = [u0 - radius - FACE_OVERRUN_MM, u1 + radius + FACE_OVERRUN_MM];
  const point = (u: number, v: number, z: number): Vec3 => (alongX ? [u, v, z] : [v, u, z]);

  const writer = requestWriter(request);
  const clearance = writer.clearance_z;
  const cleared: ClearedLayer[] = [];
  let current = stock;
  // the pass centres across, from v0's side; every level runs back the way the last one ended
  const across: number[] = Array.from({ length: passes }, (_, i) => v0 + (i + 1) * step - radius);
  let forward = true;
  let side = 0;
  for (const z of levels) {
    writer.heights = materialHeights(part, current);
    const order = forward ? across : [...across].reverse();
    const moves: Move[] = [];
    let start: Vec3 | null = null;
    for (const v of order) {
      const from = ends[side] as number;
      const to = ends[1 - side] as number;
      if (start === null) start = point(from, v, z);
      else moves.push({ kind: "linear", to: point(from, v, z), feed: parameters.feed_mm_min });
      moves.push({ kind: "linear", to: point(to, v, z), feed: parameters.feed_mm_min });
      side = 1 - side;
    }
    forward = !forward;
    const cut: Cut = { start: start as Vec3, moves };
    writer.append(cut);
    const layer: ClearedLayer = { z, area: current.rect };
    cleared.push(layer);
    current = current.withCleared([layer]);
  }
  const operation = makeOperation(request, "face_milling", `Facing with ${tool.name}`, clearance, writer.finish());
  return { operation, reason: null, cleared, skipped: [], notes: [] };
}
