/**
 * One setup of the plan as its operations see it: the frame, the stock and the part in it, and
 * the recognised features and holes this setup makes.
 *
 * The setups are the setup plan's directions (kernel/features/setups), run from +Z first and -Z
 * second, then the sides: a block in a vise is machined on top, turned over, and only then
 * clamped on its side. A +Z setup is added when the stock stands above the part and the plan
 * has none: the side setups would have to reach down the whole part to take that slab off.
 *
 * A feature is made in the first setup (in that order) that reaches all of it; a hole in the
 * first of those whose tool axis runs along the hole into its entrance. Features no setup takes
 * are the plan's to report.
 */
import type { Feature } from "../../features/recognition/types.ts";
import type { Setup } from "../../features/setups/types.ts";
import { boxToFrame, setupFrame, soupToFrame } from "../frames.ts";
import { holeInSetup, type SetupHole } from "../holes/setup-hole.ts";
import { triangleFaceIds } from "../holes/chamfer-edges.ts";
import type { Box3, Frame, TriangleSoup, Vec3 } from "../types.ts";
import type { PlannedPart } from "./read-part.ts";

export interface SetupPart {
  index: number;
  name: string;
  direction: Vec3;
  frame: Frame;
  /** in the setup's frame */
  stock: Box3;
  /** the part's triangles in the setup's frame */
  soup: TriangleSoup;
  /** per triangle of `soup`: its face id */
  triangleFaces: Uint32Array;
  /** features made here (holes among them) */
  features: Feature[];
  holes: SetupHole[];
}

/** Every setup's part, features shared out as the header says. */
export function setupParts(part: PlannedPart, stock: Box3): SetupPart[] {
  const taken = new Set<number>();
  const triangleFaces = triangleFaceIds(part.vertexFaces, part.soup.indices);
  return orderedSetups(part, stock).map((setup: Setup) => {
    const frame = setupFrame(setup.direction, stock);
    const features: Feature[] = [];
    const holes: SetupHole[] = [];
    for (const id of setup.features) {
      const feature = part.recognition.features[id];
      if (feature === undefined || taken.has(id)) continue;
      if (feature.hole !== undefined) {
        const hole = holeInSetup(feature, frame);
        if (!hole.ok) continue;
        holes.push(hole.hole);
      }
      taken.add(id);
      features.push(feature);
    }
    return {
      index: setup.index,
      name: setup.name,
      direction: setup.direction,
      frame,
      stock: boxToFrame(frame, stock),
      soup: soupToFrame(frame, part.soup),
      triangleFaces,
      features,
      holes,
    };
  });
}

const AXIS = 1 - 1e-9;

function orderedSetups(part: PlannedPart, stock: Box3): Setup[] {
  const setups = [...part.setups.setups];
  const top = part.analysis.bbox?.max[2] ?? stock.max[2];
  if (!setups.some((s) => s.direction[2] > AXIS) && stock.max[2] > top + 1e-6) {
    setups.push({ index: setups.length, name: "+Z", direction: [0, 0, 1], faces: [], features: [] });
  }
  const rank = (s: Setup) => (s.direction[2] > AXIS ? 0 : s.direction[2] < -AXIS ? 1 : 2);
  return setups
    .map((setup, order) => ({ setup, order }))
    .sort((a, b) => rank(a.setup) - rank(b.setup) || a.order - b.order)
    .map(({ setup }, index) => ({ ...setup, index }));
}
