/**
 * The in-process stock as 2.5D milling leaves it: the stock box with prisms taken out. Every
 * flat-bottomed cut at a level z removes, within the area the tool swept, everything from z up:
 * a ClearedLayer. What is left at a height h is then the stock rectangle minus the layers at or
 * below h. Toolpaths read it to know where material is (what to cut, where to enter, how high to
 * rapid) and hand back the layers they cleared, which the caller adds for the next operation.
 *
 * It never sees the part: the part is inside the stock, and the region a tool may go is decided
 * by the slicer. Slivers thinner than 2 x SLIVER_MM are not material (what rounding leaves between
 * two cuts that meet), well under the 0.01 mm the simulation counts as touching.
 *
 * A stock and every stock made from it by withCleared share what they know of the stock left
 * above each height (remainingAbove): an answer for a height and an earlier stock (or a lower
 * height: what is left only shrinks going up) needs only the layers it lacks taken off, instead
 * of all layers united again. Each level of a roughing makes a new stock and asks about several
 * heights, so without this every level paid for every layer cleared before it, at each of them.
 */
import type { Box3 } from "../types.ts";
import {
  bounds,
  boundsOverlap,
  clipToRect,
  difference,
  differenceAll,
  intersection,
  isEmpty,
  open,
  rectangle,
  union,
  SCALE,
  type Paths64,
  type Rect64,
} from "./polygons.ts";
import {
  boundsFromCells,
  clearCells,
  gridOver,
  regionCells,
  uncutHeights,
  type Grid,
  type RegionCells,
  type StockHeights,
} from "./stock-cells.ts";

export const SLIVER_MM = 0.002;
/** heights closer than this are the same layer */
const SAME_HEIGHT_MM = 1e-6;
/** answers kept per height for the stocks of one lineage (branches: a dropped operation's stock, walls.ts's forgiving stock) */
const KEPT_PER_HEIGHT = 4;
/** cell heights kept for the stocks of one lineage, for the same branches (each a copy of the whole grid's) */
const KEPT_CELL_HEIGHTS = 4;

/** Within `area` (Clipper units, polygons.ts), the stock above z has been removed. */
export interface ClearedLayer {
  z: number;
  area: Paths64;
}

/** What remainingAbove answered for one stock: its layers as added (the first `count`), and the answer. */
interface Answer {
  added: readonly ClearedLayer[];
  count: number;
  region: Paths64;
}

/** The cell heights (stock-cells.ts) of a stock with the first `count` of `added` cleared. */
interface CellAnswer {
  added: readonly ClearedLayer[];
  count: number;
  heights: StockHeights;
}

/** Shared by a stock and the stocks made from it. */
interface Lineage {
  answers: Map<number, Answer[]>;
  grid: Grid;
  /** each layer's cells on the grid (layers are never changed) */
  layerCells: WeakMap<ClearedLayer, RegionCells | null>;
  /** the latest cell heights made, which a stock made from theirs starts from */
  cells: CellAnswer[];
}

export class InProcessStock {
  readonly box: Box3;
  /** the stock's XY rectangle */
  readonly rect: Paths64;
  /** lowest first, one per height */
  readonly layers: readonly ClearedLayer[];
  /** the layers in the order they were added (the lineage's answers are keyed by them) */
  private readonly added: readonly ClearedLayer[];
  private readonly lineage: Lineage;
  private readonly remaining = new Map<number, Paths64>();
  private heights: StockHeights | null = null;

  /** `from`: the stock these layers are cleared from (withCleared), sharing its answers */
  constructor(box: Box3, layers: readonly ClearedLayer[] = [], from: InProcessStock | null = null) {
    const more = layers.filter((layer) => layer.area.length > 0);
    this.box = box;
    this.rect = from?.rect ?? rectangle([box.min[0], box.min[1]], [box.max[0], box.max[1]]);
    this.added = from === null ? more : [...from.added, ...more];
    this.layers = mergeLayers(from?.layers ?? [], more);
    this.lineage = from?.lineage ?? { answers: new Map(), grid: gridOver(box), layerCells: new WeakMap(), cells: [] };
  }

  /** A new stock with more layers cleared (this one is unchanged). */
  withCleared(layers: readonly ClearedLayer[]): InProcessStock {
    return layers.some((layer) => layer.area.length > 0) ? new InProcessStock(this.box, layers, this) : this;
  }

  /** The stock's top face (z of the untouched stock). */
  get top_z(): number {
    return this.box.max[2];
  }

  /** The highest stock left anywhere, -Infinity when none is left. */
  highest(): number {
    return this.topOver(this.rect);
  }

  /** XY shadow of the stock still there at heights >= z. */
  remainingAbove(z: number): Paths64 {
    if (z > this.box.max[2] - SAME_HEIGHT_MM) return [];
    const key = Math.round(z * 1e6) / 1e6;
    const cached = this.remaining.get(key);
    if (cached) return cached;
    // Start from the answer that leaves the fewest layers to take off: one at this height or
    // below (the stock left only shrinks going up) for a stock whose layers this one's begin
    // with (the same stock, or one it was made from).
    let base = this.rect;
    let baseHeight = -Infinity;
    let baseCount = 0;
    let fewest = this.layersBetween(-Infinity, key, 0);
    for (const [height, answers] of this.lineage.answers) {
      if (height > key || fewest === 0) continue;
      for (const answer of answers) {
        if (answer.count > this.added.length || !this.startsWith(answer)) continue;
        const n = this.layersBetween(height, key, answer.count);
        if (n < fewest) {
          fewest = n;
          base = answer.region;
          baseHeight = height;
          baseCount = answer.count;
        }
      }
    }
    const cleared: Paths64[] = [];
    for (let i = 0; i < this.added.length; i += 1) {
      const layer = this.added[i] as ClearedLayer;
      if (layer.z <= key + SAME_HEIGHT_MM && (i >= baseCount || layer.z > baseHeight + SAME_HEIGHT_MM))
        cleared.push(layer.area);
    }
    const result = cleared.length === 0 ? base : open(differenceAll(base, cleared), SLIVER_MM);
    this.remaining.set(key, result);
    const answers = this.lineage.answers.get(key) ?? [];
    if (!answers.some((answer) => answer.added === this.added)) {
      answers.push({ added: this.added, count: this.added.length, region: result });
      if (answers.length > KEPT_PER_HEIGHT) answers.shift();
      this.lineage.answers.set(key, answers);
    }
    return result;
  }

  /**
   * The highest stock left over a region, -Infinity when none. The cells (stock-cells.ts) bound
   * it; where the bounds differ, the layers are taken off the region within the cells that may
   * be higher than the lower bound, lowest first, until nothing is left of it.
   */
  topOver(region: Paths64): number {
    const grid = this.lineage.grid;
    const { atLeast, atMost, undecided } = boundsFromCells(this.cellHeights(), grid, regionCells(region, grid));
    if (undecided === null) return atMost;
    return Math.max(atLeast, this.walkTopOver(clipToRect(region, undecided), atLeast));
  }

  /** The cell heights of this stock: from the latest ones its lineage made for a stock whose layers this one's begin with. */
  private cellHeights(): StockHeights {
    if (this.heights !== null) return this.heights;
    const { grid, layerCells, cells } = this.lineage;
    let start: CellAnswer | null = null;
    for (const answer of cells) {
      if (
        answer.count <= this.added.length &&
        this.startsWith(answer) &&
        (start === null || answer.count > start.count)
      )
        start = answer;
    }
    const heights =
      start === null
        ? uncutHeights(grid, this.box)
        : { covered: start.heights.covered.slice(), centre: start.heights.centre.slice() };
    for (let i = start?.count ?? 0; i < this.added.length; i += 1) {
      const layer = this.added[i] as ClearedLayer;
      let covers = layerCells.get(layer);
      if (covers === undefined) {
        covers = regionCells(layer.area, grid);
        layerCells.set(layer, covers);
      }
      // at the height of the merged layer it went into (the first at that height), as the walk answers
      if (covers !== null) clearCells(heights, grid, covers, this.layerHeight(layer.z));
    }
    this.heights = heights;
    cells.push({ added: this.added, count: this.added.length, heights });
    if (cells.length > KEPT_CELL_HEIGHTS) cells.shift();
    return heights;
  }

  /**
   * The lowest layer height at which nothing of the region is left: the highest stock over it.
   * The layers below `known` (a height the answer is known not to be under) are taken off in one.
   */
  private walkTopOver(region: Paths64, known: number): number {
    let left = intersection(region, this.rect);
    if (isEmpty(left)) return -Infinity;
    const margin = Math.round(SCALE * 0.01);
    // what is left of the region's box, `margin` wider: only layers reaching into it matter
    const around = (box: Rect64): Rect64 => ({
      left: box.left - margin,
      top: box.top - margin,
      right: box.right + margin,
      bottom: box.bottom + margin,
    });
    let window = around(bounds(left));
    // the layers under `known`, clipped, until they are taken off together: true when nothing is left
    const below: Paths64[] = [];
    const takeBelow = (): boolean => {
      left = differenceAll(left, below.splice(0));
      return isEmpty(left, 1e-5);
    };
    for (const layer of this.layers) {
      // a layer wholly beside the window has nothing in it (what clipToRect would find slower)
      if (!boundsOverlap(layerBounds(layer), window)) continue;
      if (layer.z < known - SAME_HEIGHT_MM) {
        const near = clipToRect(layer.area, window);
        if (near.length > 0) below.push(near);
        continue;
      }
      if (below.length > 0) {
        if (takeBelow()) return known;
        window = around(bounds(left));
        if (!boundsOverlap(layerBounds(layer), window)) continue;
      }
      const near = clipToRect(layer.area, window);
      if (near.length === 0) continue;
      left = difference(left, near);
      if (isEmpty(left, 1e-5)) return layer.z;
      window = around(bounds(left));
    }
    if (below.length > 0 && takeBelow()) return known;
    return this.box.max[2];
  }

  /** The height of the merged layer at z (layers within SAME_HEIGHT_MM of each other are one). */
  private layerHeight(z: number): number {
    for (const layer of this.layers) if (Math.abs(layer.z - z) <= SAME_HEIGHT_MM) return layer.z;
    return z;
  }

  /** How many layers an answer at `from` for the first `count` layers lacks at `to`. */
  private layersBetween(from: number, to: number, count: number): number {
    let n = 0;
    for (let i = 0; i < this.added.length; i += 1) {
      const z = (this.added[i] as ClearedLayer).z;
      if (z <= to + SAME_HEIGHT_MM && (i >= count || z > from + SAME_HEIGHT_MM)) n += 1;
    }
    return n;
  }

  private startsWith(answer: { added: readonly ClearedLayer[]; count: number }): boolean {
    if (answer.added === this.added) return true;
    for (let i = 0; i < answer.count; i += 1) if (answer.added[i] !== this.added[i]) return false;
    return true;
  }
}

const boundsOfLayers = new WeakMap<ClearedLayer, Rect64>();

/** A layer's bounds, kept with it (layers are never changed). */
function layerBounds(layer: ClearedLayer): Rect64 {
  let box = boundsOfLayers.get(layer);
  if (box === undefined) {
    box = bounds(layer.area);
    boundsOfLayers.set(layer, box);
  }
  return box;
}

/** Layers sorted lowest first, one per height: `more` put into `merged` (neither is changed). */
function mergeLayers(merged: readonly ClearedLayer[], more: readonly ClearedLayer[]): ClearedLayer[] {
  const out = [...merged];
  for (const layer of [...more].sort((a, b) => a.z - b.z)) {
    if (layer.area.length === 0) continue;
    // the first at or above this height
    let i = 0;
    while (i < out.length && (out[i] as ClearedLayer).z < layer.z - SAME_HEIGHT_MM) i += 1;
    const there = out[i];
    if (there !== undefined && Math.abs(there.z - layer.z) <= SAME_HEIGHT_MM)
      out[i] = { z: there.z, area: union(there.area, layer.area) };
    else out.splice(i, 0, layer);
  }
  return out;
}
