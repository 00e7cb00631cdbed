/**
 * The triangles reaching into a band of heights, found without looking at every triangle.
 *
 * A shadow is made from the band between its height and the nearest shadow above (shadows.ts),
 * and a band holds a small share of the part: NIST STC-06's planning made over 1,700 bands of
 * its mesh, and testing every triangle against every band took 1.4 s of the shadow thread's 24.
 * The index puts each triangle in the bins of equal height its z range spans; those spanning
 * many bins (the long triangles of tall walls) are kept in a list of their own, tested at every
 * query, so a mesh of tall triangles does not fill every bin.
 */
import type { Triangles } from "./triangles.ts";

/** bins per index: enough that a band of a tenth of a millimetre opens few of them */
const BINS = 1024;
/** a triangle spanning more bins than this is tall: in no bin, tested at every query */
const TALL_BINS = 16;

export class HeightIndex {
  private readonly triangles: Triangles;
  private readonly bottom: number;
  private readonly binHeight: number;
  /** bin b holds members[starts[b]] up to members[starts[b + 1]], in increasing order */
  private readonly starts: Int32Array;
  private readonly members: Int32Array;
  private readonly tall: Int32Array;
  /** per triangle: the query that last took it (each query takes a triangle once) */
  private readonly taken: Int32Array;
  private query = 0;

  constructor(triangles: Triangles) {
    this.triangles = triangles;
    let bottom = Infinity;
    let top = -Infinity;
    for (let t = 0; t < triangles.count; t += 1) {
      bottom = Math.min(bottom, triangles.zmin[t] as number);
      top = Math.max(top, triangles.zmax[t] as number);
    }
    this.bottom = Number.isFinite(bottom) ? bottom : 0;
    this.binHeight = Number.isFinite(bottom) && top > bottom ? (top - bottom) / BINS : 1;
    // counted first, then placed: two passes, no array per bin
    const sizes = new Int32Array(BINS);
    let tallCount = 0;
    for (let t = 0; t < triangles.count; t += 1) {
      const [first, last] = this.binsOf(triangles.zmin[t] as number, triangles.zmax[t] as number);
      if (last - first >= TALL_BINS) tallCount += 1;
      else for (let b = first; b <= last; b += 1) sizes[b] = (sizes[b] as number) + 1;
    }
    this.starts = new Int32Array(BINS + 1);
    for (let b = 0; b < BINS; b += 1) this.starts[b + 1] = (this.starts[b] as number) + (sizes[b] as number);
    this.members = new Int32Array(this.starts[BINS] as number);
    this.tall = new Int32Array(tallCount);
    const next = this.starts.slice(0, BINS);
    let tallNext = 0;
    for (let t = 0; t < triangles.count; t += 1) {
      const [first, last] = this.binsOf(triangles.zmin[t] as number, triangles.zmax[t] as number);
      if (last - first >= TALL_BINS) this.tall[tallNext++] = t;
      else
        for (let b = first; b <= last; b += 1) {
          this.members[next[b] as number] = t;
          next[b] = (next[b] as number) + 1;
        }
    }
    this.taken = new Int32Array(triangles.count);
  }

  /**
   * The triangles with some of their height inside (low, high) (zmax > low and zmin < high), in
   * increasing order: the order a scan of every triangle finds them in.
   */
  crossing(low: number, high: number): Int32Array {
    this.query += 1;
    const found: number[] = [];
    this.take(this.tall, 0, this.tall.length, low, high, found);
    const [first, last] = this.binsOf(low, high);
    for (let b = first; b <= last; b += 1)
      this.take(this.members, this.starts[b] as number, this.starts[b + 1] as number, low, high, found);
    return Int32Array.from(found).sort();
  }

  /** The triangles of list[start, end) crossing (low, high) not yet taken by this query, added to `found`. */
  private take(list: Int32Array, start: number, end: number, low: number, high: number, found: number[]): void {
    const { triangles, taken, query } = this;
    for (let i = start; i < end; i += 1) {
      const t = list[i] as number;
      if (taken[t] === query) continue;
      taken[t] = query;
      if ((triangles.zmax[t] as number) > low && (triangles.zmin[t] as number) < high) found.push(t);
    }
  }

  /** The bins from the one holding `low` to the one holding `high`, both within the index. */
  private binsOf(low: number, high: number): [number, number] {
    return [this.bin(low), this.bin(high)];
  }

  private bin(z: number): number {
    // an infinite z is the first or last bin (NaN from Infinity's division would be neither)
    if (z === Infinity) return BINS - 1;
    return Math.min(BINS - 1, Math.max(0, Math.floor((z - this.bottom) / this.binHeight)));
  }
}
