/**
 * A PNG thumbnail of a mesh, rendered on the server without a GPU: a shaded isometric view
 * (docs/mesh-formats.md describes it for clients).
 *
 * - View: orthographic, from the direction (1, −1, 1) (front-right-top, Z up, the usual CAD
 *   isometric: +X runs to the lower right, +Y to the upper right, +Z straight up), fitted so
 *   the projected bounding box fills the image less a margin of THUMBNAIL_VIEW.margin of the
 *   size on each side. The fit depends on the mesh's bounding box only (meshBounds, the glTF's
 *   POSITION min/max), so a client holding it can place a point on the image
 *   (thumbnailProjection).
 * - Rasterizer: z-buffered, edge functions on a 1/16-pixel fixed-point grid with the top-left
 *   fill rule (a pixel centre on an edge shared by two triangles is drawn once), rendered at
 *   twice the size and box-filtered down (4 samples per pixel).
 * - Shading: Gouraud (per-vertex Lambert, interpolated) from a light fixed to the camera,
 *   tilted up and a little to the left of the view direction so the three visible faces of a
 *   box get three different shades (a light exactly along the view direction would light them
 *   equally), plus ambient and a faint specular; a neutral metal grey. Triangles seen from
 *   behind (open meshes) are lit with the normal flipped.
 * - Edges: a dark line where the B-rep face id changes between neighbouring pixels and along
 *   the silhouette (pixels next to the background). An STL (one face id) gets the silhouette
 *   only.
 */
import sharp from "sharp";
import { checkMesh, unitNormals } from "./check.ts";
import { dot, normalise, type Vec3 } from "../math/vec3.ts";
import { meshBounds } from "./bounds.ts";
import type { BoundingBox, TriangleMesh } from "./types.ts";

export type Rgba = [number, number, number, number];

export interface ThumbnailOptions {
  /** width and height in pixels, a whole number from 16 to 1024; default 256 */
  size?: number;
  /** RGBA, 0..255 each; default transparent white [255, 255, 255, 0] */
  background?: Rgba;
}

const TOWARD_CAMERA = normalise([1, -1, 1]);
const SCREEN_RIGHT = normalise([1, 1, 0]); // (0,0,1) × toward-camera
const SCREEN_UP = normalise([-1, 1, 2]); // toward-camera × right
const LIGHT = normalise([
  TOWARD_CAMERA[0] + 0.5 * SCREEN_UP[0] - 0.15 * SCREEN_RIGHT[0],
  TOWARD_CAMERA[1] + 0.5 * SCREEN_UP[1] - 0.15 * SCREEN_RIGHT[1],
  TOWARD_CAMERA[2] + 0.5 * SCREEN_UP[2] - 0.15 * SCREEN_RIGHT[2],
]);
const HALF_VECTOR = normalise([LIGHT[0] + TOWARD_CAMERA[0], LIGHT[1] + TOWARD_CAMERA[1], LIGHT[2] + TOWARD_CAMERA[2]]);

/** The fixed view, in the mesh's coordinates (Z up). */
export const THUMBNAIL_VIEW = {
  /** unit vector from the part toward the camera */
  towardCamera: TOWARD_CAMERA,
  /** unit vectors of the image's right and up directions */
  screenRight: SCREEN_RIGHT,
  screenUp: SCREEN_UP,
  /** unit vector toward the light (it moves with the camera) */
  light: LIGHT,
  /** empty border on each side, as a fraction of the size */
  margin: 0.06,
  ambient: 0.3,
  diffuse: 0.7,
  specular: 0.15,
  shininess: 24,
  /** RGB of a fully lit surface */
  colour: [190, 194, 200] as const,
  /** edge pixels keep this fraction of their shade */
  edgeShade: 0.3,
  /** samples per pixel along each axis (box-filtered down) */
  supersample: 2,
} as const;

const SUPERSAMPLE = THUMBNAIL_VIEW.supersample;
const SUBPIXEL = 16; // fixed-point steps per pixel
const DEFAULT_SIZE = 256;
const DEFAULT_BACKGROUND: Rgba = [255, 255, 255, 0];

export interface ThumbnailProjection {
  /** pixels per millimetre */
  scale: number;
  /** a point in mm to image coordinates: x to the right, y down, pixel (i, j) spans [i, i+1) × [j, j+1) */
  project(point: readonly [number, number, number]): [number, number];
}

/** Where the thumbnail of a part with bounding box `bbox` puts a point, for an image of `size` pixels. */
export function thumbnailProjection(bbox: BoundingBox, size: number): ThumbnailProjection {
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let corner = 0; corner < 8; corner++) {
    const p: Vec3 = [
      corner & 1 ? bbox.max[0] : bbox.min[0],
      corner & 2 ? bbox.max[1] : bbox.min[1],
      corner & 4 ? bbox.max[2] : bbox.min[2],
    ];
    const x = dot(p, SCREEN_RIGHT);
    const y = dot(p, SCREEN_UP);
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const extent = Math.max(maxX - minX, maxY - minY);
  const scale = extent > 0 ? (size * (1 - 2 * THUMBNAIL_VIEW.margin)) / extent : 1;
  const centreX = (minX + maxX) / 2;
  const centreY = (minY + maxY) / 2;
  return {
    scale,
    project(point) {
      const p: Vec3 = [point[0], point[1], point[2]];
      return [size / 2 + (dot(p, SCREEN_RIGHT) - centreX) * scale, size / 2 - (dot(p, SCREEN_UP) - centreY) * scale];
    },
  };
}

export interface RawImage {
  width: number;
  height: number;
  /** RGBA, row by row from the top, 4 bytes per pixel, not premultiplied */
  data: Uint8Array;
}

/** The thumbnail as raw RGBA (renderThumbnail encodes it as PNG). */
export function renderThumbnailRgba(mesh: TriangleMesh, options: ThumbnailOptions = {}): RawImage {
  const size = options.size ?? DEFAULT_SIZE;
  if (!Number.isInteger(size) || size < 16 || size > 1024)
    throw new RangeError(`thumbnail size must be a whole number from 16 to 1024, got ${size}`);
  const background = options.background ?? DEFAULT_BACKGROUND;
  if (background.length !== 4 || background.some((c) => !Number.isInteger(c) || c < 0 || c > 255)) {
    throw new RangeError(`background must be four whole numbers 0..255, got [${background.join(", ")}]`);
  }
  const { vertexCount } = checkMesh(mesh);
  const bbox = meshBounds(mesh);
  const normals = unitNormals(mesh);

  // Per vertex: fixed-point screen position, depth (larger = nearer), brightness lit from the
  // front and with the normal flipped.
  const S = size * SUPERSAMPLE;
  const view = thumbnailProjection(bbox, S);
  const centre = view.project([0, 0, 0]);
  const k = view.scale * SUBPIXEL;
  const ox = centre[0] * SUBPIXEL;
  const oy = centre[1] * SUBPIXEL;
  const [rx, ry, rz] = SCREEN_RIGHT;
  const [ux, uy, uz] = SCREEN_UP;
  const [cx, cy, cz] = TOWARD_CAMERA;
  const [lx, ly, lz] = LIGHT;
  const [hx, hy, hz] = HALF_VECTOR;
  const { ambient, diffuse, specular, shininess } = THUMBNAIL_VIEW;
  const fx = new Float64Array(vertexCount);
  const fy = new Float64Array(vertexCount);
  const depthOf = new Float64Array(vertexCount);
  const front = new Float32Array(vertexCount);
  const back = new Float32Array(vertexCount);
  const { positions } = mesh;
  for (let v = 0, i = 0; v < vertexCount; v++, i += 3) {
    const x = positions[i] as number;
    const y = positions[i + 1] as number;
    const z = positions[i + 2] as number;
    fx[v] = Math.round(ox + (x * rx + y * ry + z * rz) * k);
    fy[v] = Math.round(oy - (x * ux + y * uy + z * uz) * k);
    depthOf[v] = x * cx + y * cy + z * cz;
    const nx = normals[i] as number;
    const ny = normals[i + 1] as number;
    const nz = normals[i + 2] as number;
    const nl = nx * lx + ny * ly + nz * lz;
    const nh = nx * hx + ny * hy + nz * hz;
    front[v] = ambient + diffuse * Math.max(0, nl) + (nh > 0 ? specular * nh ** shininess : 0);
    back[v] = ambient + diffuse * Math.max(0, -nl) + (nh < 0 ? specular * (-nh) ** shininess : 0);
  }

  const pixels = S * S;
  const depth = new Float32Array(pixels).fill(-Infinity);
  const shade = new Float32Array(pixels);
  const faceOf = new Uint32Array(pixels);
  const { indices, faceIds } = mesh;
  const half = SUBPIXEL / 2;
  const maxPixel = S - 1;

  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t] as number;
    let b = indices[t + 1] as number;
    let c = indices[t + 2] as number;
    const x0 = fx[a] as number;
    const y0 = fy[a] as number;
    let x1 = fx[b] as number;
    let y1 = fy[b] as number;
    let x2 = fx[c] as number;
    let y2 = fy[c] as number;
    let area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0);
    if (area === 0) continue;
    // Image y runs down, so a triangle counter-clockwise seen from the camera has area < 0:
    // it faces the camera. Swap two vertices so that area > 0 for every triangle.
    let lit = front;
    if (area > 0) {
      lit = back;
    } else {
      [b, c] = [c, b];
      [x1, x2] = [x2, x1];
      [y1, y2] = [y2, y1];
      area = -area;
    }
    const minI = Math.max(0, Math.ceil((Math.min(x0, x1, x2) - half) / SUBPIXEL));
    const maxI = Math.min(maxPixel, Math.floor((Math.max(x0, x1, x2) - half) / SUBPIXEL));
    if (minI > maxI) continue;
    const minJ = Math.max(0, Math.ceil((Math.min(y0, y1, y2) - half) / SUBPIXEL));
    const maxJ = Math.min(maxPixel, Math.floor((Math.max(y0, y1, y2) - half) / SUBPIXEL));
    if (minJ > maxJ) continue;

    // Edge function of edge p→q at s: (qx − px)(sy − py) − (qy − py)(sx − px); all three are
    // ≥ 0 inside. Top-left rule: on a top edge (horizontal, going right) or a left edge (going
    // up) a pixel centre exactly on the edge is inside, on the others it is not (bias −1: the
    // values are whole numbers).
    const e0dx = -(y2 - y1) * SUBPIXEL; // edge 1→2, weight of vertex 0
    const e0dy = (x2 - x1) * SUBPIXEL;
    const e1dx = -(y0 - y2) * SUBPIXEL; // edge 2→0, weight of vertex 1
    const e1dy = (x0 - x2) * SUBPIXEL;
    const e2dx = -(y1 - y0) * SUBPIXEL; // edge 0→1, weight of vertex 2
    const e2dy = (x1 - x0) * SUBPIXEL;
    const sx = minI * SUBPIXEL + half;
    const sy = minJ * SUBPIXEL + half;
    let row0 = (x2 - x1) * (sy - y1) - (y2 - y1) * (sx - x1) + (isTopLeft(x1, y1, x2, y2) ? 0 : -1);
    let row1 = (x0 - x2) * (sy - y2) - (y0 - y2) * (sx - x2) + (isTopLeft(x2, y2, x0, y0) ? 0 : -1);
    let row2 = (x1 - x0) * (sy - y0) - (y1 - y0) * (sx - x0) + (isTopLeft(x0, y0, x1, y1) ? 0 : -1);

    const invArea = 1 / area;
    const z0 = depthOf[a] as number;
    const z1 = depthOf[b] as number;
    const z2 = depthOf[c] as number;
    const s0 = lit[a] as number;
    const s1 = lit[b] as number;
    const s2 = lit[c] as number;
    const face = faceIds[a] as number;
    // The bias shifts the weights by at most 1/area, negligible for depth and shade.
    for (let j = minJ; j <= maxJ; j++) {
      let w0 = row0;
      let w1 = row1;
      let w2 = row2;
      let p = j * S + minI;
      for (let i = minI; i <= maxI; i++, p++) {
        if (w0 >= 0 && w1 >= 0 && w2 >= 0) {
          const z = (w0 * z0 + w1 * z1 + w2 * z2) * invArea;
          if (z > (depth[p] as number)) {
            depth[p] = z;
            shade[p] = (w0 * s0 + w1 * s1 + w2 * s2) * invArea;
            faceOf[p] = face;
          }
        }
        w0 += e0dx;
        w1 += e1dx;
        w2 += e2dx;
      }
      row0 += e0dy;
      row1 += e1dy;
      row2 += e2dy;
    }
  }

  return resolve(S, size, depth, shade, faceOf, background);
}

/** Edge p→q of a triangle with positive area in image coordinates (y down). */
function isTopLeft(px: number, py: number, qx: number, qy: number): boolean {
  return qy < py || (qy === py && qx > px);
}

/** Colours the supersampled buffers, draws the edges and box-filters down to `size`. */
function resolve(
  S: number,
  size: number,
  depth: Float32Array,
  shade: Float32Array,
  faceOf: Uint32Array,
  background: Rgba,
): RawImage {
  const [baseR, baseG, baseB] = THUMBNAIL_VIEW.colour;
  const { edgeShade } = THUMBNAIL_VIEW;
  const covered = (p: number): boolean => (depth[p] as number) !== -Infinity;
  const data = new Uint8Array(size * size * 4);
  const [bgR, bgG, bgB, bgA] = background;
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      let sumA = 0;
      let sumR = 0;
      let sumG = 0;
      let sumB = 0;
      for (let dj = 0; dj < SUPERSAMPLE; dj++) {
        const y = j * SUPERSAMPLE + dj;
        for (let di = 0; di < SUPERSAMPLE; di++) {
          const x = i * SUPERSAMPLE + di;
          const p = y * S + x;
          if (!covered(p)) {
            sumA += bgA;
            sumR += bgR * bgA;
            sumG += bgG * bgA;
            sumB += bgB * bgA;
            continue;
          }
          const face = faceOf[p];
          const edge =
            (x > 0 && (!covered(p - 1) || faceOf[p - 1] !== face)) ||
            (x < S - 1 && (!covered(p + 1) || faceOf[p + 1] !== face)) ||
            (y > 0 && (!covered(p - S) || faceOf[p - S] !== face)) ||
            (y < S - 1 && (!covered(p + S) || faceOf[p + S] !== face));
          const light = (shade[p] as number) * (edge ? edgeShade : 1);
          sumA += 255;
          sumR += Math.min(255, baseR * light) * 255;
          sumG += Math.min(255, baseG * light) * 255;
          sumB += Math.min(255, baseB * light) * 255;
        }
      }
      const o = (j * size + i) * 4;
      const samples = SUPERSAMPLE * SUPERSAMPLE;
      data[o + 3] = Math.round(sumA / samples);
      if (sumA > 0) {
        data[o] = Math.round(sumR / sumA);
        data[o + 1] = Math.round(sumG / sumA);
        data[o + 2] = Math.round(sumB / sumA);
      } else {
        data[o] = bgR;
        data[o + 1] = bgG;
        data[o + 2] = bgB;
      }
    }
  }
  return { width: size, height: size, data };
}

/**
 * The shaded isometric thumbnail as a PNG (RGBA). Throws GeometryError("empty_mesh") for a mesh
 * without triangles: an empty picture would hide that the part did not tessellate.
 */
export async function renderThumbnail(mesh: TriangleMesh, options: ThumbnailOptions = {}): Promise<Uint8Array> {
  const image = renderThumbnailRgba(mesh, options);
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .png()
    .toBuffer();
}
