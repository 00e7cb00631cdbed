/**
 * Whether a tool's neck, shank and holder stay clear of the part and the workholding with its
 * tip at a cutter location: how deep 3D finishing reaches, measured from what stands under the
 * tool's bodies there rather than from the stock's top. A dome's flank far below the stock's top
 * is in reach when nothing beside it rises to the shank; a fillet at the foot of a tall wall is
 * not.
 *
 * Each body above the flutes (simulation/cutter-profile.ts: the bodies the simulation checks for
 * holder collisions) is a disc of its widest radius at its lowest height above the tip; the
 * highest material under that disc is a flat cutter's drop over the soup (drop-cutter.ts). The
 * body is clear when that stands BODY_CLEARANCE_MM below it, the disc grown by as much.
 *
 * A pass asks at every point it samples, a few hundred thousand on a NIST part, and a holder's
 * disc 60 mm wide covers thousands of triangles: each body's answer is kept per square of
 * CLEARANCE_CELL_MM, measured once from the square's centre with the disc grown by its
 * half-diagonal, which covers every point in it.
 */
import { cutterProfile } from "../simulation/cutter-profile.ts";
import type { Cutter, TriangleSoup, Vec3 } from "../types.ts";
import { FlatCutter } from "./cutters.ts";
import { DropCutter } from "./drop-cutter.ts";

/**
 * How far a body keeps from the part, sideways and below (mm): the finishing runs on what the
 * 2.5D finishing left, terraces standing up to a few tenths above sloped faces (their stepdown's
 * cusp) that the part's triangles do not show, and the simulation counts any touch of a body.
 */
export const BODY_CLEARANCE_MM = 1;
/** the squares the answers are kept for (mm): the disc grows by 0.35 mm, well within BODY_CLEARANCE_MM's purpose */
const CLEARANCE_CELL_MM = 0.5;
/** keys of the squares: i and j offset into [0, 2^21) (a part within a kilometre of its origin) */
const KEY_OFFSET = 2 ** 20;

interface Body {
  /** the body's lowest height above the tip */
  bottom: number;
  /** the highest material under the body's disc (grown) at a square's centre */
  drop: DropCutter;
  /** per square (KEY_OFFSET's key): that height */
  known: Map<number, number>;
}

export class ToolClearance {
  private readonly bodies: Body[];
  /** the soup's highest point: a body above it is clear everywhere */
  private readonly top: number;

  constructor(tool: Cutter, soup: TriangleSoup) {
    let top = -Infinity;
    for (let i = 2; i < soup.positions.length; i += 3) top = Math.max(top, soup.positions[i] as number);
    this.top = top;
    this.bodies = cutterProfile(tool).bodies.map(({ envelope }) => ({
      bottom: envelope.base,
      drop: new DropCutter(
        soup,
        new FlatCutter(envelope.reach + BODY_CLEARANCE_MM + CLEARANCE_CELL_MM * Math.SQRT1_2),
        {
          floor: -Infinity,
        },
      ),
      known: new Map(),
    }));
  }

  /** Whether every body clears the material under it with the tip at `p`. */
  clear(p: Vec3): boolean {
    const i = Math.floor(p[0] / CLEARANCE_CELL_MM);
    const j = Math.floor(p[1] / CLEARANCE_CELL_MM);
    const key = (i + KEY_OFFSET) * 2 * KEY_OFFSET + (j + KEY_OFFSET);
    for (const body of this.bodies) {
      const lowest = p[2] + body.bottom - BODY_CLEARANCE_MM;
      if (this.top <= lowest) continue;
      let highest = body.known.get(key);
      if (highest === undefined) {
        highest = body.drop.dropAt((i + 0.5) * CLEARANCE_CELL_MM, (j + 0.5) * CLEARANCE_CELL_MM);
        body.known.set(key, highest);
      }
      if (highest > lowest) return false;
    }
    return true;
  }
}
