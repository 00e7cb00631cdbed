/**
 * Clipper2's C++ library compiled to WebAssembly (clipper2-wasm), for the operations whose cost
 * grows with the regions: booleans, offsets, open paths clipped by regions, and regions split
 * into their pieces; and for rectangle clips, which clipper2-ts 2.0.1 gets wrong in a case
 * (polygons.ts: clipToRect). The cheap, linear ones (bounds, point tests, simplification) stay
 * on clipper2-ts, the same library in TypeScript, which needs no copying.
 *
 * Why both. Measured on a NIST part's shadows (5,000 vertices): a round offset by 5 mm took
 * 34 ms in clipper2-ts and 13 ms here, a union of 3,900 triangle slivers 21 ms and 13 ms, a
 * difference 5.8 ms and 2.4 ms, copying in and out included (0.3 ms for 2,900 vertices). And
 * clipper2-ts 2.0.1 looped for good (fixSelfIntersects) on a union the C++ library did in 5 ms.
 *
 * Ownership: every WASM object is made and deleted within one function here (WASM memory is not
 * collected); callers only ever see plain Paths64. Points cross as int64 triples (x, y and the z
 * this build carries), copied out of the WASM memory at once, before anything else can grow (and
 * so detach) it.
 */
import factory from "clipper2-wasm/dist/es/clipper2z.js";
import type { MainModule, Paths64 as NativePaths, PolyPath64 as NativeTree } from "clipper2-wasm/dist/clipper2z.d.ts";
import type { Path64, Paths64 } from "clipper2-ts";

const native: MainModule = await factory();

export type BooleanKind = "union" | "difference" | "intersection";

/** A boolean of two regions under the NonZero rule. */
export function booleanOp(kind: BooleanKind, subject: Paths64, clip: Paths64): Paths64 {
  const clipType =
    kind === "union"
      ? native.ClipType.Union
      : kind === "difference"
        ? native.ClipType.Difference
        : native.ClipType.Intersection;
  return owning((own) =>
    fromNative(own(native.BooleanOp64(clipType, native.FillRule.NonZero, own(toNative(subject)), own(toNative(clip))))),
  );
}

/** Closed regions grown or shrunk (`end` "polygon"), or open paths swept (`end` "round"), with round joins; delta and tolerance in Clipper units. */
export function inflate(paths: Paths64, delta: number, end: "polygon" | "round", arcTolerance: number): Paths64 {
  const endType = end === "polygon" ? native.EndType.Polygon : native.EndType.Round;
  return owning((own) =>
    fromNative(
      own(native.InflatePaths64(own(toNative(paths)), delta, native.JoinType.Round, endType, 2, arcTolerance)),
    ),
  );
}

/** Open polylines cut to what lies inside or outside a region (NonZero). */
export function clipOpenPaths(paths: Paths64, region: Paths64, keep: "inside" | "outside"): Paths64 {
  return owning((own) => {
    const clipper = own(native.CreateClipper64(false));
    const closed = own(new native.Paths64());
    const opened = own(new native.Paths64());
    clipper.AddOpenSubject(own(toNative(paths)));
    clipper.AddClip(own(toNative(region)));
    clipper.ExecutePath(
      keep === "inside" ? native.ClipType.Intersection : native.ClipType.Difference,
      native.FillRule.NonZero,
      closed,
      opened,
    );
    return fromNative(opened);
  });
}

/** The part of a region inside a rectangle (Clipper units): Clipper2's RectClip, each loop on its own. */
export function rectClipPaths(
  paths: Paths64,
  rect: { left: number; top: number; right: number; bottom: number },
): Paths64 {
  return owning((own) => {
    // whole units, never smaller than asked
    const box = own(
      new native.Rect64(
        BigInt(Math.floor(rect.left)),
        BigInt(Math.floor(rect.top)),
        BigInt(Math.ceil(rect.right)),
        BigInt(Math.ceil(rect.bottom)),
      ),
    );
    return fromNative(own(native.RectClipPaths64(box, own(toNative(paths)))));
  });
}

/** A region's outer loops, each with the holes right inside it (islands in a hole are outer loops of their own). */
export function outersWithHoles(region: Paths64): Paths64[] {
  return owning((own) => {
    const tree = own(new native.PolyPath64());
    native.BooleanOpOut64(
      native.ClipType.Union,
      native.FillRule.NonZero,
      own(toNative(region)),
      own(new native.Paths64()),
      tree,
    );
    const out: Paths64[] = [];
    // children belong to their tree: read, never deleted
    const visit = (node: NativeTree): void => {
      for (let i = 0; i < node.count(); i += 1) {
        const outer = node.child(i);
        const piece: Paths64 = [polygonOf(outer)];
        for (let j = 0; j < outer.count(); j += 1) {
          const hole = outer.child(j);
          piece.push(polygonOf(hole));
          visit(hole);
        }
        out.push(piece.filter((path) => path.length > 0));
      }
    };
    visit(tree);
    return out;
  });
}

/** A tree node's loop (a copy, deleted here). */
function polygonOf(node: NativeTree): Path64 {
  return owning((own) => readPath(own(node.polygon()).view()));
}

/**
 * Runs `body`, handing it `own`: every native object passed through `own` is deleted when body
 * returns or throws, whatever it made before that.
 */
function owning<T>(body: (own: <O extends { delete(): void }>(object: O) => O) => T): T {
  const made: { delete(): void }[] = [];
  try {
    return body((object) => {
      made.push(object);
      return object;
    });
  } finally {
    for (const object of made) object.delete();
  }
}

/**
 * Clipper units as int64 without a BigInt per coordinate: each is written as two int32 words
 * (little-endian: low word, then the sign), read back from the low word. Coordinates stay within
 * int32 (214 m at 0.1 µm), checked on the way in. BigInt(x) and Number(v) per coordinate were a
 * tenth of a NIST part's planning.
 */
const INT32_LIMIT = 2 ** 31;

/**
 * The words of the path being copied in: one buffer for every call, grown when a path needs more
 * (a typed array made for each path, and its zeroing, cost more than the copy).
 */
let words = new Int32Array(6 * 1024);

/** A point beyond int32 throws before it is written: what was already copied in is deleted. */
function toNative(paths: Paths64): NativePaths {
  const out = new native.Paths64();
  // one path object refilled for each path: push_back copies it (two calls into WASM a path,
  // not four: a union of thousands of small pieces spent more on the calls than on the points)
  const nativePath = new native.Path64();
  try {
    for (const path of paths) {
      const length = 6 * path.length;
      if (words.length < length) words = new Int32Array(2 * length);
      const w = words;
      for (let i = 0, o = 0; o < length; i += 1, o += 6) {
        const p = path[i] as { x: number; y: number };
        const x = p.x;
        const y = p.y;
        if (!(x > -INT32_LIMIT && x < INT32_LIMIT && y > -INT32_LIMIT && y < INT32_LIMIT))
          throw new RangeError(`a point (${x}, ${y}) beyond ±2^31 Clipper units`);
        w[o] = x;
        // the sign of the word as stored (a fraction is cut towards zero)
        w[o + 1] = (w[o] as number) >> 31;
        w[o + 2] = y;
        w[o + 3] = (w[o + 2] as number) >> 31;
      }
      nativePath.assign(new BigInt64Array(w.buffer, 0, length / 2));
      out.push_back(nativePath);
    }
  } catch (error) {
    out.delete();
    throw error;
  } finally {
    nativePath.delete();
  }
  return out;
}

function fromNative(paths: NativePaths): Paths64 {
  const out: Paths64 = [];
  const count = paths.size();
  for (let k = 0; k < count; k += 1) {
    const path = paths.get(k);
    try {
      out.push(readPath(path.view()));
    } finally {
      path.delete();
    }
  }
  return out;
}

/** `view` lies in the WASM memory: read before anything else runs there. */
function readPath(view: BigInt64Array): Path64 {
  const words = new Int32Array(view.buffer, view.byteOffset, 2 * view.length);
  const path: Path64 = new Array(view.length / 3);
  for (let i = 0; i < path.length; i += 1) path[i] = { x: words[6 * i] as number, y: words[6 * i + 2] as number };
  return path;
}

/** The WASM heap's size in bytes (it grows and never shrinks: a leak shows as growth). */
export function nativeHeapBytes(): number {
  return (native as MainModule & { HEAPU8: Uint8Array }).HEAPU8.length;
}
