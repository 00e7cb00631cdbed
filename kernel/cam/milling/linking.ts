/**
 * Linking: how the tool gets from the end of one cut to the start of the next.
 *
 * Every cut starts where the tool may come straight down in air (a point no material touches at
 * the cut's level, or above the material top for helix and ramp entries). From the previous cut:
 *
 * - same level or a level above (the level before: stay down between levels), and the cut gives a
 *   feed link to its start that cuts nothing and stays in the allowed region at the cut's level
 *   (a straight line, or back along the pass just cut and then straight): stay down and feed
 *   there. A link that is clear at the cut's level is clear above it (the material it is checked
 *   against is all the material above the level), so from the level above it ramps straight down
 *   (taken when it costs less feed time than going up and over);
 * - otherwise retract straight up to a safe height (the rapid clearance above the highest
 *   material, part or stock, within the tool's radius + the rapid clearance of the straight line
 *   between the two points, never above the clearance plane), rapid across, rapid down to the
 *   rapid clearance above the material within the tool's radius + the rapid clearance of the
 *   start (or APPROACH_MM above the start, when that is higher) and feed the rest of the way. The
 *   neck, shank and holder where they are wider than the cut (levels.ts) cross at their height
 *   above the tip, each RETRACT_MARGIN_MM above the material within its radius +
 *   BODY_CLEARANCE_MM of the line.
 *
 * Rapids therefore keep the rapid clearance (RAPID_CLEARANCE_MM, 2 mm, unless the plan's
 * rapid_clearance_mm says otherwise) from all material, sideways and below: a blank a little
 * larger than its box is not met at rapid speed. The heights come from the stock as it was when
 * the current level began (material only goes away during a level, so they are on the safe
 * side), and a descent also reads what the level's cuts swept so far (beginLevel, Cut.swept):
 * there nothing stands above the level, so a descent into the air the level's passes cleared
 * rapids down to the clearance above what is really left and feeds on without a plunge.
 *
 * Air moves (the descents' feeds and the links' ramps down) go at the air feed (Feeds.air) where
 * the model's air is all there is: below the stock box's top and the rapid clearance inside its
 * sides, where no oversize blank can stand; a descent there to a start no material under the tool
 * stands above needs no plunge. Elsewhere they keep the cutting feed.
 */
import type { Box3, Cutter, Move, Vec2, Vec3 } from "../types.ts";
import { BODY_CLEARANCE_MM, wideBodies, type WideBody } from "./levels.ts";
import {
  bounds,
  boundsOverlap,
  clipToRect,
  differenceAll,
  disk,
  isEmpty,
  pathOf,
  simplifyOpen,
  sweep,
  vecOf,
  type Path64,
  type Paths64,
  type Rect64,
} from "./polygons.ts";
import type { PartSlicer } from "./slicer.ts";
import { CLEARANCE_MM } from "./regions.ts";
import type { InProcessStock } from "./stock.ts";

export const RETRACT_MARGIN_MM = 1;
export const APPROACH_MM = 1;
/** how far a rapid keeps from all material, sideways and below, unless the plan says otherwise */
export const RAPID_CLEARANCE_MM = 2;
/**
 * A rapid's corridor is a polygon this coarse (its chords this far inside the true round ends),
 * grown by as much: it covers the tool's reach and at most this much beyond. At the fine arc
 * tolerance a 20 mm tool's had some 600 vertices, and the material's top over it is asked at
 * every retract. NIST FTC-10 from 39 to 35 s, every machining time the same.
 */
const CORRIDOR_TOLERANCE_MM = 0.01;

/**
 * Material no deeper than this inside the tool's radius is grazed by its side on the way down,
 * not met by its end: a clearing pass starts where it touches the material by less than its
 * front tolerance (clearing.ts, 0.025 mm), and a descent there plunged the whole level at the
 * plunge feed: NIST FTC-10's roughings spent 325 of their 2,241 s plunging, 42 s after.
 */
export const DESCENT_GRAZE_MM = 0.025;

/** The highest material over a region: -Infinity when there is none. */
export interface Heights {
  over(region: Paths64): number;
}

export function materialHeights(part: PartSlicer, stock: InProcessStock): Heights {
  return { over: (region) => Math.max(part.topOver(region), stock.topOver(region)) };
}

export interface Cut {
  /** where the cut begins; the tool can come straight down to it */
  start: Vec3;
  moves: Move[];
  /**
   * From `from` at the same level or above it, the points the tool may feed through to `start`
   * (ending with it) cutting nothing and staying in bounds at the cut's level, or null when it
   * must go up and over.
   */
  linkFrom?: (from: Vec3) => Vec3[] | null;
  /**
   * linkFrom's points cross only air the cuts before cleared (walls.ts: the free region, or back
   * along the pass just cut): fed at the air feed where it may be used, not the cutting feed
   */
  linkInAir?: boolean;
  /**
   * the area the cut's moves sweep at its level (all material above the level gone there), when
   * known: the descents after it at the same level read it (ToolpathWriter.beginLevel)
   */
  swept?: Paths64;
}

export interface Feeds {
  feed: number;
  plunge: number;
  /** through air known to be cleared (AIR_FEED_FACTOR, ../tooling/feeds.ts); the cutting feed when not given */
  air?: number;
}

export interface WriterOptions {
  /** where rapids go up to, and the operation ends */
  clearance_z: number;
  feeds: Feeds;
  heights: Heights;
  /** how far rapids keep from all material (RAPID_CLEARANCE_MM) */
  rapid_clearance_mm?: number;
  /** the stock box: beside its outer faces air moves keep the cutting feed (none: everywhere) */
  box?: Box3;
}

export class ToolpathWriter {
  readonly moves: Move[] = [];
  heights: Heights;
  private at: Vec3 | null = null;
  private readonly radius: number;
  private readonly bodies: readonly WideBody[];
  /** where rapids go up to, and the operation ends */
  readonly clearance_z: number;
  private readonly feeds: Required<Feeds>;
  private readonly rapidClearance: number;
  private readonly box: Box3 | null;
  /** how many times the tool went up and across */
  retracts = 0;
  /**
   * The level being cleared (beginLevel) and what its cuts swept so far: `heights` are the stock
   * as the level began, so without these a descent after a retract took the level's own
   * material for standing under it and plunged through the air its passes had cut.
   */
  private level: { z: number; swept: Paths64[] } | null = null;

  constructor(cutter: Cutter, options: WriterOptions) {
    this.radius = cutter.diameter / 2;
    this.bodies = wideBodies(cutter);
    this.clearance_z = options.clearance_z;
    this.feeds = { ...options.feeds, air: options.feeds.air ?? options.feeds.feed };
    this.box = options.box ?? null;
    this.heights = options.heights;
    this.rapidClearance = options.rapid_clearance_mm ?? RAPID_CLEARANCE_MM;
  }

  get position(): Vec3 | null {
    return this.at;
  }

  /**
   * A level begins at z: `heights` the stock as it stands, and the cuts appended from now on
   * with a `swept` area clear everything above z within it (until the next beginLevel).
   */
  beginLevel(heights: Heights, z: number): void {
    this.heights = heights;
    this.level = { z, swept: [] };
  }

  /** Link to the cut's start and append its moves. */
  append(cut: Cut): void {
    const at = this.at;
    const start = cut.start;
    if (at === null) {
      this.push({ kind: "rapid", to: [start[0], start[1], this.clearance_z] });
      for (const move of this.descent(start)) this.push(move);
    } else {
      for (const move of this.linkMoves(at, cut)) this.push(move);
    }
    for (const move of cut.moves) this.push(move);
    if (cut.swept !== undefined && this.level !== null && cut.swept.length > 0) this.level.swept.push(cut.swept);
  }

  /** Up to the clearance plane: the operation ends there. */
  finish(): Move[] {
    if (this.at !== null && this.at[2] < this.clearance_z)
      this.push({ kind: "rapid", to: [this.at[0], this.at[1], this.clearance_z] });
    return this.moves;
  }

  /**
   * From `at` to the cut's start: the cut's feed link when it gives one (at its level: always;
   * from a level above: when it takes less feed time than going up and over, rapids counted as
   * free), otherwise up, across and down.
   */
  private linkMoves(at: Vec3, cut: Cut): Move[] {
    const start = cut.start;
    // a cut may link from where the last one ended at its height or above (the level before)
    const link = at[2] > start[2] - 1e-9 ? (cut.linkFrom?.(at) ?? null) : null;
    if (link !== null) {
      const fed = this.fedLink(at, link, cut.linkInAir === true);
      if (at[2] - start[2] < 1e-9) return fed;
      const over = this.travel(at, start);
      if (feedSeconds(at, fed) <= feedSeconds(at, over)) return fed;
      this.retracts += 1;
      return over;
    }
    this.retracts += 1;
    return this.travel(at, start);
  }

  /**
   * A link's points as feeds: at the cutting feed, and down into the cut's level (or, `inAir`,
   * everywhere) at the air feed where that may be used.
   */
  private fedLink(at: Vec3, points: readonly Vec3[], inAir: boolean): Move[] {
    let here = at;
    return points.map((to): Move => {
      const feed = (inAir || to[2] < here[2]) && this.inAir(here, to) ? this.feeds.air : this.feeds.feed;
      here = to;
      return { kind: "linear", to, feed };
    });
  }

  private travel(from: Vec3, to: Vec3): Move[] {
    const path: Path64 = pathOf([
      [from[0], from[1]],
      [to[0], to[1]],
    ]);
    const corridor = (radius: number) => sweep([path], radius + CORRIDOR_TOLERANCE_MM, CORRIDOR_TOLERANCE_MM);
    const top = this.heights.over(corridor(this.radius + this.reach()));
    let safe = Math.min(this.clearance_z, Math.max(top + this.rapidClearance, from[2], to[2]));
    // the neck, shank and holder go across too, `from` above the tip: each as high above the
    // material within its reach of the line (a 1 mm tool's 6 mm shank 6 mm up)
    let widest = this.radius;
    for (const body of this.bodies) {
      if (body.radius <= widest) continue;
      widest = body.radius;
      if (safe + body.from >= this.clearance_z) break;
      const below = this.heights.over(corridor(body.radius + BODY_CLEARANCE_MM));
      if (below + RETRACT_MARGIN_MM > safe + body.from)
        safe = Math.min(this.clearance_z, below + RETRACT_MARGIN_MM - body.from);
    }
    const moves: Move[] = [];
    if (from[2] < safe) moves.push({ kind: "rapid", to: [from[0], from[1], safe] });
    if (from[0] !== to[0] || from[1] !== to[1]) moves.push({ kind: "rapid", to: [to[0], to[1], safe] });
    return [...moves, ...this.descent(to, [to[0], to[1], Math.max(safe, from[2])])];
  }

  /**
   * Sideways, how far beyond the radius rapids look for material: the rapid clearance, less what
   * the corridors' chords may reach beyond it, so a face mill turning exactly the clearance
   * outside the stock does not see it; at least CLEARANCE_MM (a wall of stock a rapid runs beside).
   */
  private reach(): number {
    return Math.max(CLEARANCE_MM, this.rapidClearance - CORRIDOR_TOLERANCE_MM);
  }

  /**
   * From `here`, straight above `to`, down to it: rapid to the rapid clearance above the material
   * within its reach, feed on through the air beside it (a wall the tool descends along) to
   * APPROACH_MM above the material under the tool, and plunge the rest.
   */
  private descent(to: Vec3, here: Vec3 = [to[0], to[1], this.clearance_z]): Move[] {
    const moves: Move[] = [];
    // exact discs: a descent beside a wall 0.01 mm beyond the reach would stop above the wall
    // (coarse like the corridors, partC's machining took 1.3 minutes longer)
    const near = this.descentHeight(disk([to[0], to[1]], this.radius + this.reach()));
    const approach = Math.max(near + this.rapidClearance, to[2] + APPROACH_MM);
    let z = here[2];
    if (approach < z) {
      moves.push({ kind: "rapid", to: [to[0], to[1], approach] });
      z = approach;
    }
    const under = this.descentHeight(disk([to[0], to[1]], this.radius - DESCENT_GRAZE_MM));
    const plunge = Math.max(under, to[2]) + APPROACH_MM;
    // through the air at the air feed, after the cutting feed down to the stock box's top: all
    // the way when no material under the tool stands above the start
    const airEnd = under <= to[2] ? to[2] : plunge;
    const top = this.airTop();
    if (airEnd < z && airEnd <= top && this.inAir([to[0], to[1], Math.min(z, top)], to)) {
      if (top < z) moves.push({ kind: "linear", to: [to[0], to[1], top], feed: this.feeds.feed });
      moves.push({ kind: "linear", to: [to[0], to[1], airEnd], feed: this.feeds.air });
      z = airEnd;
    } else if (plunge < z) {
      moves.push({ kind: "linear", to: [to[0], to[1], plunge], feed: this.feeds.feed });
      z = plunge;
    }
    if (to[2] < z) moves.push({ kind: "linear", to, feed: this.feeds.plunge });
    return moves;
  }

  /**
   * The highest material over a region round a descent: where this level's cuts swept it stands
   * no higher than the level, elsewhere as `heights` say.
   */
  private descentHeight(region: Paths64): number {
    const level = this.level;
    if (level === null || level.swept.length === 0) return this.heights.over(region);
    const box = bounds(region);
    const cut = level.swept.flatMap((swept) => {
      if (!boundsOverlap(sweptBounds(swept), box)) return [];
      const near = clipToRect(swept, box);
      return near.length === 0 ? [] : [near];
    });
    if (cut.length === 0) return this.heights.over(region);
    const rest = differenceAll(region, cut);
    return Math.max(isEmpty(rest, 1e-8) ? -Infinity : this.heights.over(rest), level.z);
  }

  /** Where air moves may begin: the stock box's top (none: anywhere). */
  private airTop(): number {
    return this.box === null ? Infinity : this.box.max[2];
  }

  /**
   * Whether the tool may go from `a` to `b` at the air feed: both ends at least the rapid
   * clearance inside the stock box's sides (away from its outer faces, where an oversize blank
   * may stand) and at or below its top (the material there is what the toolpaths left).
   */
  private inAir(a: Vec3, b: Vec3): boolean {
    const box = this.box;
    if (box === null || this.feeds.air === this.feeds.feed) return false;
    const inset = this.radius + this.rapidClearance;
    return [a, b].every(
      (p) =>
        p[2] <= box.max[2] &&
        p[0] >= box.min[0] + inset &&
        p[0] <= box.max[0] - inset &&
        p[1] >= box.min[1] + inset &&
        p[1] <= box.max[1] - inset,
    );
  }

  private push(move: Move): void {
    if (move.kind !== "drill") {
      const at = this.at;
      if (at !== null && move.kind !== "arc" && at[0] === move.to[0] && at[1] === move.to[1] && at[2] === move.to[2])
        return;
      this.at = move.to;
    }
    this.moves.push(move);
  }
}

const boundsOfSweeps = new WeakMap<Paths64, Rect64>();

/** A swept area's bounds, kept with it (sweeps are never changed). */
function sweptBounds(swept: Paths64): Rect64 {
  let box = boundsOfSweeps.get(swept);
  if (box === undefined) {
    box = bounds(swept);
    boundsOfSweeps.set(swept, box);
  }
  return box;
}

/** The seconds a sequence of moves from `from` spends at a feed (rapids counted as free). */
function feedSeconds(from: Vec3, moves: readonly Move[]): number {
  let here = from;
  let seconds = 0;
  for (const move of moves) {
    if (move.kind === "drill") continue;
    if (move.kind === "linear")
      seconds += (Math.hypot(move.to[0] - here[0], move.to[1] - here[1], move.to[2] - here[2]) / move.feed) * 60;
    here = move.to;
  }
  return seconds;
}

/** Linear feeds along a polyline at height z (collinear points dropped), from its 2nd point. */
export function polylineMoves(path: Path64, z: number, feed: number): Move[] {
  const points = simplifyOpen(path);
  const moves: Move[] = [];
  for (let i = 1; i < points.length; i += 1) {
    const p = vecOf(points[i] as { x: number; y: number });
    moves.push({ kind: "linear", to: [p[0], p[1], z], feed });
  }
  return moves;
}

export function xy(p: Vec3): Vec2 {
  return [p[0], p[1]];
}
