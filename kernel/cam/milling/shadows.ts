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
import { ARC_TOLERANCE_MM, KEEP_OUT_SIMPLIFY_MM, offset, simplify, union, type Paths64 } from "./polygons.ts";
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
  return need.mm === undefined ? `${heightKey(need.z)}` : `${heightKey(need.z)} ${need.mm} ${need.tolerance_mm ?? ARC_TOLERANCE_MM}`;
}

/**
 * Makes shadows and grown shadows, keeping each.
 *
 * The shadows are made from the top down: the union of the triangles' projections above z is the
 * one above it united with the projections of the band between, so a whole set of levels costs
 * one pass over the triangles per level. That union is kept exact; the shadow read is it closed
 * (the hairline cracks rounding leaves between neighbours filled) and simplified. Triangles are
 * clipped at z + SHADOW_EPSILON_MM: a face lying exactly at z (a floor) is not above z, the tool
 * tip may rest on it. Only the triangles facing up are projected (triangles.ts: facingUp): the
 * others lie under them, and projecting them too took NIST STC-06's shadow thread 15.9 s instead
 * of 12.8 (the exact shadows 7.7 s instead of 4.7), for the same plan.
 */
export class ShadowMaker {
  private readonly triangles: Triangles;
  private readonly index: HeightIndex;
  private readonly top: number;
  private readonly shadows = new Map<number, Paths64>();
  private readonly exact = new Map<number, Paths64>();
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
    return need.mm === undefined ? this.shadow(need.z) : this.grownShadow(need.z, need.mm, need.tolerance_mm ?? ARC_TOLERANCE_MM);
  }

  shadow(z: number): Paths64 {
    const key = heightKey(z);
    const cached = this.shadows.get(key);
    if (cached) return cached;
    const exact = this.exactShadow(key);
    // closing: fills the hairline cracks rounding leaves between neighbouring triangles; simplified
    // in between, where the union's vertices are fewer before the second offset
    const result = exact.length === 0 ? exact : offset(simplify(offset(exact, CRACK_MM), SHADOW_SIMPLIFY_MM), -CRACK_MM);
    this.shadows.set(key, result);
    return result;
  }

  /**
   * The union of the triangles' projections above z, as it is: the base of the shadows below.
   * Closed and simplified, each shadow is within SHADOW_SIMPLIFY_MM of it. Closed and simplified
   * shadows as the base instead, the error grew with every link of a chain of them (partC from +Z
   * at -27 mm, after shadows every 0.1 mm: 0.87 mm² of the part outside its shadow, 0.06 mm deep;
   * closed alone, 0.012 mm outside the part).
   */
  private exactShadow(key: number): Paths64 {
    const cached = this.exact.get(key);
    if (cached) return cached;
    if (key >= this.top) {
      this.exact.set(key, []);
      return [];
    }
    // the nearest shadow above: only the band between is new
    let above = Infinity;
    for (const z0 of this.exact.keys()) if (z0 > key && z0 < above) above = z0;
    const base = above === Infinity ? [] : (this.exact.get(above) as Paths64);
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
    const result = pieces.length === 0 ? base : union(base, outline(pieces));
    this.exact.set(key, result);
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
