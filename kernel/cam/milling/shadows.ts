/**
 * The part's shadows and grown shadows (slicer.ts), made in the order they are asked for.
 *
 * shadow(z) is made from the nearest shadow above it already made, so its vertices (not its
 * area: see ShadowMaker) depend on which were made before it. Made in the order asked, the same
 * plan gets the same shadows wherever they are made: a ShadowQueue makes them in the planner's
 * thread when they are read, the shadow thread (planner/shadow-thread.ts) as they are asked for,
 * ahead of the planner. A grown shadow is a function of its shadow alone.
 */
import { HeightIndex } from "./height-index.ts";
import { outline } from "./outline.ts";
import {
  ARC_TOLERANCE_MM,
  area,
  KEEP_OUT_SIMPLIFY_MM,
  loopArea,
  offset,
  SCALE,
  simplify,
  union,
  type Paths64,
} from "./polygons.ts";
import { facingUp, projectClipped, SHADOW_EPSILON_MM, type Triangles } from "./triangles.ts";

/** cracks narrower than twice this between neighbouring projections are closed */
export const CRACK_MM = 5e-4;
/** how far simplifying may move a shadow's boundary (polygons.ts: growKeepOut makes up for it) */
const SHADOW_SIMPLIFY_MM = KEEP_OUT_SIMPLIFY_MM;

/** A shadow a level reads: at height z, grown by mm (with round joins within tolerance_mm) when mm is given. */
export interface ShadowNeed {
  z: number;
  mm?: number;
  tolerance_mm?: number;
}

/** Where a slicer's shadows come from: made in its own thread (ShadowQueue) or another (planner/shadow-thread.ts). */
export interface ShadowSource {
  shadow(z: number): Paths64;
  /** the shadow grown by mm (kept: every operation of a setup grows the same shadows by the same radii) */
  grownShadow(z: number, mm: number, tolerance_mm: number): Paths64;
  /** the shadows a level will read, asked for before it reads them */
  ahead(needs: readonly ShadowNeed[]): void;
  /** done with: a thread's resources are given back */
  close(): void;
}

/** Heights closer than a nanometre share a shadow. */
export const heightKey = (z: number): number => Math.round(z * 1e6) / 1e6;

/** The key a need is made and kept under. */
export function needKey(need: ShadowNeed): string {
  return need.mm === undefined
    ? `${heightKey(need.z)}`
    : `${heightKey(need.z)} ${need.mm} ${need.tolerance_mm ?? ARC_TOLERANCE_MM}`;
}

/**
 * Makes shadows and grown shadows, keeping each.
 *
 * The shadows are made from the top down: the union of the triangles' projections above z is the
 * one above it united with the projections of the band between, so a whole set of levels costs
 * one pass over the triangles per level. Each band's projections are grown by CRACK_MM before
 * they join the union (grownProjections), which so fills the hairline cracks rounding leaves between
 * neighbours; the shadow read is that union simplified and shrunk back by CRACK_MM: the closing
 * of the exact union, within SHADOW_SIMPLIFY_MM. Triangles are clipped at z + SHADOW_EPSILON_MM:
 * a face lying exactly at z (a floor) is not above z, the tool tip may rest on it. Only the
 * triangles facing up are projected (triangles.ts: facingUp): the others lie under them, and
 * projecting them too took NIST STC-06's shadow thread 15.9 s instead of 12.8 (the exact shadows
 * 7.7 s instead of 4.7), for the same plan.
 */
export class ShadowMaker {
  private readonly triangles: Triangles;
  private readonly index: HeightIndex;
  private readonly top: number;
  private readonly shadows = new Map<number, Paths64>();
  /** per height, the union of the grown bands above it (grownChain) */
  private readonly chain = new Map<number, Paths64>();
  /** each shadow simplified once for each simplification its keep-outs take (keepOutSimplification) */
  private readonly simplified = new Map<string, Paths64>();
  private readonly grown = new Map<string, Paths64>();

  constructor(triangles: Triangles) {
    this.triangles = facingUp(triangles);
    this.index = new HeightIndex(this.triangles);
    let top = -Infinity;
    for (let t = 0; t < this.triangles.count; t += 1) top = Math.max(top, this.triangles.zmax[t] as number);
    this.top = top;
  }

  make(need: ShadowNeed): Paths64 {
    return need.mm === undefined
      ? this.shadow(need.z)
      : this.grownShadow(need.z, need.mm, need.tolerance_mm ?? ARC_TOLERANCE_MM);
  }

  shadow(z: number): Paths64 {
    const key = heightKey(z);
    const cached = this.shadows.get(key);
    if (cached) return cached;
    const grown = this.grownChain(key);
    const result = grown.length === 0 ? grown : offset(simplify(grown, SHADOW_SIMPLIFY_MM), -CRACK_MM);
    this.shadows.set(key, result);
    return result;
  }

  /**
   * The union of the triangles' projections above z, each band's grown by CRACK_MM. Each band is
   * grown from its own exact projections, so the error does not add up down the chain: closed
   * and simplified shadows as the base instead, it grew with every link (partC from +Z at -27 mm,
   * after shadows every 0.1 mm: 0.87 mm² of the part outside its shadow, 0.06 mm deep). Closing
   * each shadow from the exact union instead (grown by CRACK_MM and shrunk back) took NIST
   * STC-06's shadows 7.1 to 7.3 s, against 5.5 to 5.8 s so (one thread, the same needs replayed).
   */
  private grownChain(key: number): Paths64 {
    const cached = this.chain.get(key);
    if (cached) return cached;
    if (key >= this.top) {
      this.chain.set(key, []);
      return [];
    }
    // the nearest shadow above: only the band between is new
    let above = Infinity;
    for (const z0 of this.chain.keys()) if (z0 > key && z0 < above) above = z0;
    const base = above === Infinity ? [] : (this.chain.get(above) as Paths64);
    const low = key + SHADOW_EPSILON_MM;
    const high = above === Infinity ? Infinity : above + SHADOW_EPSILON_MM;
    const { triangles } = this;
    const pieces: Paths64 = [];
    for (const t of this.index.crossing(low, high)) {
      const piece = projectClipped(triangles, t, low, high);
      if (piece) pieces.push(piece);
    }
    // the band's pieces as their outline (outline.ts): neighbours share their edges, and a band
    // of a NIST part's 24,000 slivers took Clipper 880 ms to unite as they were
    const result = pieces.length === 0 ? base : union(base, grownProjections(pieces));
    this.chain.set(key, result);
    return result;
  }

  grownShadow(z: number, mm: number, tolerance_mm: number): Paths64 {
    const key = needKey({ z, mm, tolerance_mm });
    let result = this.grown.get(key);
    if (result === undefined) {
      result = this.keepOut(z, mm, tolerance_mm);
      this.grown.set(key, result);
    }
    return result;
  }

  /**
   * The shadow grown by mm as a keep-out (polygons.ts growKeepOut): grown from its simplified
   * boundary, kept per height and simplification (every operation grows the same shadows by
   * several radii: the tool, its neck, shank and holder); shrunk from the shadow itself.
   */
  private keepOut(z: number, mm: number, tolerance_mm: number): Paths64 {
    if (!(mm > 0)) return offset(this.shadow(z), mm, tolerance_mm);
    const simplification = keepOutSimplification(tolerance_mm);
    // grown by its own simplification and the shadow's more (growKeepOut's margin)
    return offset(this.simplifiedShadow(z, simplification), mm + simplification + SHADOW_SIMPLIFY_MM, tolerance_mm);
  }

  private simplifiedShadow(z: number, simplification: number): Paths64 {
    const key = `${heightKey(z)} ${simplification}`;
    let result = this.simplified.get(key);
    if (result === undefined) {
      result = simplify(this.shadow(z), simplification);
      this.simplified.set(key, result);
    }
    return result;
  }
}

/** holes of fewer square Clipper units hold no disc of radius CRACK_MM: closing fills them */
const CRACK_HOLE_UNITS2 = Math.PI * (CRACK_MM * SCALE) ** 2;

/** Triangles' projections united and grown by CRACK_MM (grownByCrack): a band of a shadow, the slicer's floors. */
export function grownProjections(pieces: Paths64): Paths64 {
  return grownByCrack(union(outline(pieces)));
}

/**
 * A region as Clipper's union returns it, grown by CRACK_MM. Its hole-wound loops too small to
 * hold a disc of that radius, which closing fills anyway, are left out first: Clipper's offset
 * reads a region's winding from the loop holding its lowest point, and a union of slivers can
 * return such a sliver there (3.4e-7 mm² in a band of NIST STC-06), which grew the band inside
 * out. Whatever else Clipper misreads so (the grown region smaller than the region), the region
 * is kept as it is.
 */
export function grownByCrack(region: Paths64): Paths64 {
  const grown = offset(
    region.filter((loop) => {
      const a = loopArea(loop);
      return a > 0 || a < -CRACK_HOLE_UNITS2;
    }),
    CRACK_MM,
  );
  return area(grown) < area(region) ? region : grown;
}

/**
 * How far a shadow is simplified before it is grown into a keep-out with arc tolerance
 * `tolerance_mm`: KEEP_OUT_SIMPLIFY_MM at ARC_TOLERANCE_MM (the tool's own keep-out, which wall
 * finishing runs along), in proportion for coarser ones (the neck's, shank's and holder's, the
 * work windows'), whose arcs already stray as far. A shadow's curves have a vertex every few
 * micrometres, and growing it by a holder's 30 mm turned every vertex on their inside into a
 * spike as long: growing NIST STC-06's shadows took 4.2 s of the shadow thread, 3.5 s after.
 */
export function keepOutSimplification(tolerance_mm: number): number {
  return Math.max(KEEP_OUT_SIMPLIFY_MM, (KEEP_OUT_SIMPLIFY_MM / ARC_TOLERANCE_MM) * tolerance_mm);
}

/**
 * A source that makes shadows in the order they are asked for: each need is asked once (ahead, or
 * when read), and `made` reads one, waiting for (or making) those asked before it.
 */
export abstract class AskedShadows implements ShadowSource {
  private readonly asks = new Set<string>();

  shadow(z: number): Paths64 {
    return this.read({ z });
  }

  grownShadow(z: number, mm: number, tolerance_mm: number): Paths64 {
    return this.read({ z, mm, tolerance_mm });
  }

  ahead(needs: readonly ShadowNeed[]): void {
    for (const need of needs) this.ask(need);
  }

  abstract close(): void;

  /** A need asked for the first time, after every one asked before it. */
  protected abstract asking(need: ShadowNeed, key: string): void;

  /** An asked need's shadow, once those asked before it are made. */
  protected abstract made(need: ShadowNeed, key: string): Paths64;

  private ask(need: ShadowNeed): void {
    const key = needKey(need);
    if (this.asks.has(key)) return;
    this.asks.add(key);
    this.asking(need, key);
  }

  private read(need: ShadowNeed): Paths64 {
    this.ask(need);
    return this.made(need, needKey(need));
  }
}

/** The shadows of a part made in this thread, as they are read (a slicer's default). */
export function queuedShadows(triangles: Triangles): ShadowSource {
  return new ShadowQueue(new ShadowMaker(triangles));
}

/**
 * Shadows made in the planner's thread, in the order asked: those asked ahead when a shadow
 * after them is read. The same order as the shadow thread's, so the same shadows.
 */
export class ShadowQueue extends AskedShadows {
  private readonly waiting: ShadowNeed[] = [];
  private readonly done = new Set<string>();

  constructor(private readonly maker: ShadowMaker) {
    super();
  }

  close(): void {}

  protected asking(need: ShadowNeed): void {
    this.waiting.push(need);
  }

  protected made(need: ShadowNeed, key: string): Paths64 {
    // the ones asked before it first, in order
    while (!this.done.has(key)) {
      const next = this.waiting.shift() as ShadowNeed;
      this.maker.make(next);
      this.done.add(needKey(next));
    }
    return this.maker.make(need);
  }
}
