/**
 * How hard a tool works: each cutting motion's radial engagement (the arc of the tool's
 * circumference in material ahead of it) and axial depth, measured on the height field as it is
 * before the motion cuts, and summed up per operation weighted by the length cut.
 *
 * At points along the motion (about half a tool radius apart) the leading half of the tool's
 * circle is sampled: a point is in material when the column there stands higher than the cut's
 * height. Columns hold material from the bottom up, so material at a height is material at every
 * height below it: for a flat end the arc just above the tip is the largest at any height; a ball
 * or bull nose, whose circle shrinks towards the tip, is sampled in the middle of three equal
 * slices of the cut, each on its own circle (the lowest leaves out the cusp under the tip, which
 * every pass of a ball meets all round), and the widest of the three counts. The arc is found on 33 points and each edge of it refined by bisection,
 * so its ends are known to a fifth of a degree; the points are taken a cell's half diagonal inside
 * the circle, so the cells the tool itself cut along the same path (the cell centres within its
 * radius) never read as material, and a pass repeating another reads nothing. An edge of the arc
 * is where the probe found the material's boundary, so a width is measured there, not on the
 * circle a half diagonal out (which read a thin cut a half diagonal narrow); an engagement
 * narrower than the half diagonal is what the grid leaves along a wall, and reads as none.
 *
 * The width ae is the engaged arcs' extent across the direction of travel, summed over the arcs
 * (the width of material the front meets): a slot is the diameter, a side step of 1 mm with the
 * wall beside it is 1 mm (arc 36.9° for a 10 mm tool), 0.3 mm of stock on each wall of a narrow
 * place 0.6 mm.
 * The axial depth ap is how far below the highest material on that circle the tip is, at most
 * the flutes' length. Moves that go down (ramps, helices, plunges: entries) are not measured:
 * they cut a thin layer at full width by design, and nor are the flat moves that follow a ramp
 * or helix on its own line or circle (the entry's sloped bottom taken off); nor are rapids.
 */
import type { Engagement, Vec3 } from "../types.ts";
import type { Envelope } from "./cutter-profile.ts";
import type { HeightField } from "./height-field.ts";
import type { Motion } from "./motions.ts";

/** points on the leading half circle before refinement (every 5.6°) */
const ARC_SAMPLES = 32;
/** bisections of each edge of the arc: 5.6° / 2^5, under 0.2° */
const EDGE_BISECTIONS = 5;
/** heights within the cut sampled for tools whose radius changes with height */
const CURVED_HEIGHTS = 3;
/** the share of the length cut above the reported percentile */
const PERCENTILE = 0.99;
/** a cut at least this share of the diameter wide counts as full width (a slot: all of it) */
export const FULL_WIDTH_SHARE = 0.9;
/** full width deeper than this share of the diameter (and 0.05 mm) is slotting at full depth (milling/slotting.ts) */
export const SLOT_DEPTH_SHARE = 0.5;
/**
 * A full-width cut with the part's walls on both sides within this share of the diameter of the
 * tool's edge is a slot the part makes, where no narrower path fits: trochoidal loops need a
 * corridor of 0.1 D (milling/trochoids.ts MIN_LOOP_D), rest tools keep D/10 of allowance.
 */
export const FEATURE_SLOT_SLACK_D = 0.2;
const HALF_PI = Math.PI / 2;
/** the ring's angles from the direction of travel, -90° (right) to 90° (left) */
const RING_COS = Float64Array.from({ length: ARC_SAMPLES + 1 }, (_, i) =>
  Math.cos(-HALF_PI + (Math.PI * i) / ARC_SAMPLES),
);
const RING_SIN = Float64Array.from({ length: ARC_SAMPLES + 1 }, (_, i) =>
  Math.sin(-HALF_PI + (Math.PI * i) / ARC_SAMPLES),
);

/** One operation's engagement, measured motion by motion before each cuts (see the file's comment). */
export class EngagementMeter {
  private readonly field: HeightField;
  private readonly cutting: Envelope;
  private readonly fluteLength: number;
  private readonly tolerance: number;
  /** how far inside the circle material is looked for: a cell's half diagonal */
  private readonly inset: number;
  private readonly spacing: number;
  /** per sample in material: its length (weight), arc (radians) and width (mm) */
  private readonly weights: number[] = [];
  private readonly arcs: number[] = [];
  private readonly widths: number[] = [];
  private readonly depths: number[] = [];
  /** per sample: 1 where it is full width in a slot the part makes */
  private readonly featureSlots: number[] = [];
  /** the part's heights on the field's grid; null: not known (nothing is a feature slot) */
  private readonly part: Float32Array | null;
  private axialMax = 0;
  /** the last entry's descent, while the motions after it stay on its line or circle */
  private descent: Descent | null = null;
  /** the heights on the leading half circle being measured */
  private readonly ring = new Float64Array(ARC_SAMPLES + 1);
  /** the engaged width across the travel at the height being measured: the engaged arcs' extents summed */
  private lateral = 0;

  constructor(options: {
    field: HeightField;
    part?: Float32Array;
    cutting: Envelope;
    fluteLength: number;
    tolerance: number;
  }) {
    this.field = options.field;
    this.part = options.part ?? null;
    this.cutting = options.cutting;
    this.fluteLength = options.fluteLength;
    this.tolerance = options.tolerance;
    this.inset = Math.hypot(options.field.dx, options.field.dy) / 2;
    this.spacing = Math.max(options.cutting.reach / 2, options.field.dx, options.field.dy);
  }

  /** Measures a motion on the field as it is now: call before it cuts. */
  measure(motion: Motion): void {
    if (motion.rapid) {
      this.descent = null;
      return;
    }
    if (this.finishesEntry(motion)) return;
    if (motion.kind === "line") this.measureLine(motion.from, motion.to);
    else this.measureArc(motion);
  }

  /**
   * A descent (ramp or helix) is an entry, and so is the flat pass that follows it on its own
   * line or circle at the level, taking off the sloped bottom it left: at full width, but that
   * wedge is at most one ramp or helix pitch deep. Read as cutting, it put partC's 16 mm roughing
   * at full width along every ramp.
   */
  private finishesEntry(motion: Motion): boolean {
    const from = motion.kind === "line" ? motion.from : null;
    if (motion.kind === "line" && from !== null) {
      const descends = motion.to[2] < from[2] - 1e-9;
      if (descends) {
        this.descent = { kind: "line", a: [from[0], from[1]], b: [motion.to[0], motion.to[1]], flat: 0 };
        return true;
      }
      const descent = this.descent;
      if (
        descent?.kind === "line" &&
        descent.flat < ENTRY_FLAT_MOVES &&
        onLine(descent, from) &&
        onLine(descent, motion.to)
      ) {
        descent.flat += 1;
        return true;
      }
      this.descent = null;
      return false;
    }
    if (motion.kind !== "arc") return false;
    const { centre, radius, z0, z1 } = motion.path;
    const descends = motion.clockwise ? z0 < z1 - 1e-9 : z1 < z0 - 1e-9;
    const descent = this.descent;
    if (descends) {
      this.descent = { kind: "circle", centre: [centre[0], centre[1]], radius, flat: 0 };
      return true;
    }
    if (
      descent?.kind === "circle" &&
      descent.flat < ENTRY_FLAT_MOVES &&
      Math.hypot(descent.centre[0] - centre[0], descent.centre[1] - centre[1]) < ON_ENTRY_MM &&
      Math.abs(descent.radius - radius) < ON_ENTRY_MM
    ) {
      descent.flat += 1;
      return true;
    }
    this.descent = null;
    return false;
  }

  /** The operation's figures; null when no measured motion met material. */
  summary(): Engagement | null {
    const count = this.weights.length;
    if (count === 0) return null;
    const diameter = 2 * this.cutting.reach;
    let length = 0;
    let widest = 0;
    let arcMax = 0;
    let fullWidth = 0;
    let deep = 0;
    for (let k = 0; k < count; k++) {
      length += this.weights[k] as number;
      if ((this.widths[k] as number) >= FULL_WIDTH_SHARE * diameter) {
        fullWidth += this.weights[k] as number;
        if ((this.depths[k] as number) > SLOT_DEPTH_SHARE * diameter + 0.05) deep += this.weights[k] as number;
      }
      widest = Math.max(widest, this.widths[k] as number);
      arcMax = Math.max(arcMax, this.arcs[k] as number);
    }
    const p99Width = weightedPercentile(this.widths, this.weights, PERCENTILE);
    const p99Arc = weightedPercentile(this.arcs, this.weights, PERCENTILE);
    // the slots the part makes left out: what the target is for (planner/engagement-targets.ts)
    const beside = this.widths.flatMap((w, k) => (this.featureSlots[k] === 1 ? [] : [w]));
    const besideWeights = this.weights.flatMap((w, k) => (this.featureSlots[k] === 1 ? [] : [w]));
    let slots = 0;
    for (let k = 0; k < count; k++) if (this.featureSlots[k] === 1) slots += this.weights[k] as number;
    return {
      radial_max_mm: round(widest, 2),
      radial_p99_mm: round(p99Width, 2),
      radial_max_pct: round((100 * widest) / diameter, 1),
      radial_p99_pct: round((100 * p99Width) / diameter, 1),
      angle_max_deg: round((arcMax * 180) / Math.PI, 1),
      angle_p99_deg: round((p99Arc * 180) / Math.PI, 1),
      axial_max_mm: round(this.axialMax, 2),
      cutting_length_mm: round(length, 1),
      full_width_pct: round((100 * fullWidth) / length, 2),
      full_width_deep_pct: round((100 * deep) / length, 2),
      resolution_mm: round(this.inset, 3),
      feature_slot_pct: round((100 * slots) / length, 2),
      radial_p99_beside_slots_mm: round(
        beside.length === 0 ? 0 : weightedPercentile(beside, besideWeights, PERCENTILE),
        2,
      ),
    };
  }

  private measureLine(from: Vec3, to: Vec3): void {
    const dx = to[0] - from[0],
      dy = to[1] - from[1];
    const length = Math.hypot(dx, dy);
    // plunges have no direction of travel; ramps and other descents are entries
    if (length < 1e-9 || to[2] < from[2] - 1e-9) return;
    const n = Math.max(1, Math.ceil(length / this.spacing));
    const ux = dx / length,
      uy = dy / length;
    for (let k = 0; k < n; k++) {
      const t = (k + 0.5) / n;
      this.sample(from[0] + dx * t, from[1] + dy * t, from[2] + (to[2] - from[2]) * t, ux, uy, length / n);
    }
  }

  private measureArc(motion: Extract<Motion, { kind: "arc" }>): void {
    const { centre, radius, start, sweep, z0, z1 } = motion.path;
    // the path runs counter-clockwise from z0 to z1: a clockwise move travels it from its end
    const zFrom = motion.clockwise ? z1 : z0,
      zTo = motion.clockwise ? z0 : z1;
    if (zTo < zFrom - 1e-9) return;
    const length = radius * sweep;
    const n = Math.max(1, Math.ceil(length / this.spacing));
    const turn = motion.clockwise ? -1 : 1;
    for (let k = 0; k < n; k++) {
      const t = (k + 0.5) / n;
      const angle = motion.clockwise ? start + sweep * (1 - t) : start + sweep * t;
      const c = Math.cos(angle),
        s = Math.sin(angle);
      this.sample(
        centre[0] + radius * c,
        centre[1] + radius * s,
        zFrom + (zTo - zFrom) * t,
        -s * turn,
        c * turn,
        length / n,
      );
    }
  }

  /** The tool at (x, y, z) travelling along (ux, uy), standing for `weight` mm of the path. */
  private sample(x: number, y: number, z: number, ux: number, uy: number, weight: number): void {
    const reach = this.cutting.reach;
    const ring = this.ring;
    this.readRing(x, y, ux, uy, Math.max(0, reach - this.inset));
    let top = -Infinity;
    for (let i = 0; i <= ARC_SAMPLES; i++) top = Math.max(top, ring[i] as number);
    const axial = top - z;
    if (!(axial > this.tolerance)) return;
    this.axialMax = Math.max(this.axialMax, Math.min(axial, this.fluteLength));
    let arc = 0;
    let width = 0;
    if (this.cutting.shape === "flat") {
      // the circle read above, just above the tip
      arc = this.arcAt(x, y, z + this.tolerance, ux, uy, reach);
      width = this.lateral;
    } else {
      const cut = Math.min(axial, this.fluteLength);
      for (let k = 0; k < CURVED_HEIGHTS; k++) {
        // the middle of each of three slices of the cut, on the cross-section's circle there
        const above = (cut * (k + 0.5)) / CURVED_HEIGHTS;
        const radius = radiusAt(this.cutting, above);
        this.readRing(x, y, ux, uy, Math.max(0, radius - this.inset));
        arc = Math.max(arc, this.arcAt(x, y, z + above, ux, uy, radius));
        width = Math.max(width, this.lateral);
      }
    }
    // narrower than the cells resolve: what the grid leaves along a wall, not a cut
    if (arc <= 0 || width < this.inset) return;
    this.weights.push(weight);
    this.arcs.push(arc);
    this.widths.push(width);
    this.depths.push(Math.min(axial, this.fluteLength));
    const full = width >= FULL_WIDTH_SHARE * 2 * reach;
    this.featureSlots.push(full && this.wallOn(x, y, z, ux, uy, 1) && this.wallOn(x, y, z, ux, uy, -1) ? 1 : 0);
  }

  /** The part stands above z beside the tool on `side` (1 left, -1 right), within FEATURE_SLOT_SLACK_D of its edge. */
  private wallOn(x: number, y: number, z: number, ux: number, uy: number, side: 1 | -1): boolean {
    const part = this.part;
    if (part === null) return false;
    const field = this.field;
    const step = Math.min(field.dx, field.dy);
    const reach = this.cutting.reach;
    const far = reach + FEATURE_SLOT_SLACK_D * 2 * reach;
    for (let r = reach; r <= far; r += step) {
      const i = Math.floor((x - side * uy * r - field.x0) / field.dx);
      const j = Math.floor((y + side * ux * r - field.y0) / field.dy);
      if (i < 0 || j < 0 || i >= field.nx || j >= field.ny) return false;
      if ((part[j * field.nx + i] as number) > z + this.tolerance) return true;
    }
    return false;
  }

  /** the material's top at the ARC_SAMPLES + 1 points of the leading half circle of radius r, into `ring` */
  private readRing(x: number, y: number, ux: number, uy: number, r: number): void {
    for (let i = 0; i <= ARC_SAMPLES; i++)
      this.ring[i] = this.heightAt(x, y, ux, uy, r, RING_COS[i] as number, RING_SIN[i] as number);
  }

  /**
   * The engaged arc (radians) at height h on the leading half circle of `radius` whose heights
   * `ring` holds (read a cell's half diagonal inside it); sets the width across the travel: each
   * engaged arc's extent across it, summed. The sine grows monotonically from -90° to 90°, so
   * that is the width of material the tool's front meets per unit of travel: thin stock on both
   * walls of a narrow place is the two thin widths, not the diameter between them.
   */
  private arcAt(x: number, y: number, h: number, ux: number, uy: number, radius: number): number {
    this.lateral = 0;
    if (!(radius > 0)) return 0;
    const ring = this.ring;
    const probe = Math.max(0, radius - this.inset);
    const step = Math.PI / ARC_SAMPLES;
    let arc = 0;
    let previous = (ring[0] as number) > h;
    // where the engaged arc being followed began, across the travel: an edge where the probe
    // found it (the material's boundary is there), the side of the tool where the arc is there
    let begun = -radius;
    for (let i = 1; i <= ARC_SAMPLES; i++) {
      const phi = -HALF_PI + step * i;
      const inside = (ring[i] as number) > h;
      if (inside && previous) arc += step;
      else if (inside !== previous) {
        // the edge lies between phi - step and phi: bisect it
        let lo = phi - step,
          hi = phi;
        for (let b = 0; b < EDGE_BISECTIONS; b++) {
          const mid = (lo + hi) / 2;
          if (this.heightAt(x, y, ux, uy, probe, Math.cos(mid), Math.sin(mid)) > h === previous) lo = mid;
          else hi = mid;
        }
        const edge = (lo + hi) / 2;
        arc += previous ? edge - (phi - step) : phi - edge;
        if (previous) this.lateral += Math.max(0, probe * Math.sin(edge) - begun);
        else begun = probe * Math.sin(edge);
      }
      previous = inside;
    }
    if (previous) this.lateral += radius - begun;
    return arc;
  }

  /** the material's top at the angle whose cosine and sine are c and s from the direction of travel (left positive), r from the axis */
  private heightAt(x: number, y: number, ux: number, uy: number, r: number, c: number, s: number): number {
    const px = x + r * (c * ux - s * uy),
      py = y + r * (c * uy + s * ux);
    const field = this.field;
    const i = Math.floor((px - field.x0) / field.dx);
    const j = Math.floor((py - field.y0) / field.dy);
    if (i < 0 || j < 0 || i >= field.nx || j >= field.ny) return -Infinity;
    return field.heights[j * field.nx + i] as number;
  }
}

/** how far a motion may be off an entry's line or circle and still be part of it (mm) */
const ON_ENTRY_MM = 1e-3;

/**
 * the flat moves after a descent that finish an entry (milling/entry.ts): a ramp's pass to the
 * line's end and the one back over it, a helix's two half turns; a third is cutting
 */
const ENTRY_FLAT_MOVES = 2;

type Descent =
  | { kind: "line"; a: readonly [number, number]; b: readonly [number, number]; flat: number }
  | { kind: "circle"; centre: readonly [number, number]; radius: number; flat: number };

/** p on the line through the descent's ends (a ramp zig-zags along one line) */
function onLine(descent: Extract<Descent, { kind: "line" }>, p: Vec3): boolean {
  const dx = descent.b[0] - descent.a[0],
    dy = descent.b[1] - descent.a[1];
  const length = Math.hypot(dx, dy);
  if (length < 1e-9) return false;
  return Math.abs((p[0] - descent.a[0]) * dy - (p[1] - descent.a[1]) * dx) / length < ON_ENTRY_MM;
}

/** The radius of the tool's cross-section `above` mm above its tip: the widest d whose envelope is no higher. */
function radiusAt(envelope: Envelope, above: number): number {
  if (envelope.height(envelope.reach) <= above) return envelope.reach;
  let lo = 0,
    hi = envelope.reach;
  for (let b = 0; b < 24; b++) {
    const mid = (lo + hi) / 2;
    if (envelope.height(mid) <= above) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The value below which `share` of the total weight lies (values sorted by size). */
export function weightedPercentile(values: readonly number[], weights: readonly number[], share: number): number {
  const order = values.map((_, k) => k).sort((a, b) => (values[a] as number) - (values[b] as number));
  const total = weights.reduce((sum, w) => sum + w, 0);
  let below = 0;
  for (const k of order) {
    below += weights[k] as number;
    if (below >= share * total) return values[k] as number;
  }
  return values[order.at(-1) ?? 0] ?? 0;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
