import assert from "node:assert/strict";
import { describe, it } from "node:test";
import sharp from "sharp";
import { GeometryError } from "../geometry-error.ts";
import type { Vec3 } from "../math/vec3.ts";
import { meshBounds } from "./bounds.ts";
import { BOX_FACES, boxMesh, sphereMesh } from "./test-meshes.ts";
import { renderThumbnail, renderThumbnailRgba, THUMBNAIL_VIEW, thumbnailProjection, type Rgba } from "./thumbnail.ts";
import type { TriangleMesh } from "./types.ts";

interface Decoded {
  width: number;
  height: number;
  channels: number;
  pixel(x: number, y: number): Rgba;
}

async function decodePng(png: Uint8Array): Promise<Decoded> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    channels: info.channels,
    pixel(x, y) {
      const o = (y * info.width + x) * info.channels;
      return [data[o] ?? -1, data[o + 1] ?? -1, data[o + 2] ?? -1, info.channels === 4 ? (data[o + 3] ?? -1) : 255];
    },
  };
}

const brightness = (p: Rgba): number => (p[0] + p[1] + p[2]) / 3;

/** The pixel that contains the projection of `point`, for a part with the mesh's bounding box. */
function pixelOf(mesh: TriangleMesh, size: number, point: Vec3): [number, number] {
  const [x, y] = thumbnailProjection(meshBounds(mesh), size).project(point);
  return [Math.floor(x), Math.floor(y)];
}

const dot = (a: readonly number[], b: readonly number[]): number =>
  (a[0] ?? 0) * (b[0] ?? 0) + (a[1] ?? 0) * (b[1] ?? 0) + (a[2] ?? 0) * (b[2] ?? 0);

/**
 * A mesh whose bounding box is the unit cube (eight unreferenced corner vertices fix the view)
 * plus triangles given in image coordinates of a `size` image, in the plane through the cube's
 * centre facing the camera, with the given vertex normal.
 */
function screenTriangles(
  size: number,
  triangles: [number, number][][],
  normal: readonly number[] = THUMBNAIL_VIEW.towardCamera,
): TriangleMesh {
  const corners: Vec3[] = [];
  for (let c = 0; c < 8; c++) corners.push([c & 1, (c >> 1) & 1, (c >> 2) & 1]);
  const view = thumbnailProjection({ min: [0, 0, 0], max: [1, 1, 1] }, size);
  const centre: Vec3 = [0.5, 0.5, 0.5];
  const [cx, cy] = view.project(centre);
  const { screenRight: r, screenUp: u } = THUMBNAIL_VIEW;
  const at = ([x, y]: [number, number]): Vec3 => {
    const dx = (x - cx) / view.scale;
    const dy = -(y - cy) / view.scale;
    return [centre[0] + r[0] * dx + u[0] * dy, centre[1] + r[1] * dx + u[1] * dy, centre[2] + r[2] * dx + u[2] * dy];
  };
  const points = [...corners, ...triangles.flat().map(at)];
  // the triangles must stay inside the cube, or the bounding box and so the view would change
  assert.deepEqual(meshBounds({ positions: new Float32Array(points.flat()) }), { min: [0, 0, 0], max: [1, 1, 1] });
  const vertexCount = points.length;
  const normals = new Float32Array(vertexCount * 3);
  for (let v = 0; v < vertexCount; v++) normals.set(normal, 3 * v);
  return {
    positions: new Float32Array(points.flat()),
    normals,
    indices: Uint32Array.from({ length: triangles.length * 3 }, (_, i) => 8 + i),
    faceIds: new Uint32Array(vertexCount),
  };
}

describe("renderThumbnail", () => {
  it("returns a PNG of 256 × 256 RGBA pixels by default and of the size asked for", async () => {
    const png = await renderThumbnail(boxMesh());
    assert.deepEqual(Array.from(png.subarray(0, 8)), [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "PNG signature");
    const image = await decodePng(png);
    assert.deepEqual([image.width, image.height, image.channels], [256, 256, 4]);
    const small = await decodePng(await renderThumbnail(boxMesh(), { size: 100 }));
    assert.deepEqual([small.width, small.height], [100, 100]);
  });

  it("leaves the corners in the background colour: transparent white by default, or the one given", async () => {
    for (const [background, expected] of [
      [undefined, [255, 255, 255, 0]],
      [
        [20, 40, 60, 255],
        [20, 40, 60, 255],
      ],
      [
        [200, 100, 0, 128],
        [200, 100, 0, 128],
      ],
    ] as const) {
      const image = await decodePng(
        await renderThumbnail(boxMesh([0, 0, 0], [85, 40, 20]), background ? { background: [...background] } : {}),
      );
      for (const [x, y] of [
        [0, 0],
        [255, 0],
        [0, 255],
        [255, 255],
      ] as const) {
        assert.deepEqual(image.pixel(x, y), expected, `corner ${x},${y} with background ${JSON.stringify(background)}`);
      }
    }
  });

  it("covers the cube's isometric silhouette, a regular hexagon of area √3·s², fitted with the margin", async () => {
    const size = 256;
    const image = await decodePng(await renderThumbnail(boxMesh([0, 0, 0], [10, 10, 10]), { size }));
    let coverage = 0;
    let top = size;
    let bottom = -1;
    let left = size;
    let right = -1;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const alpha = image.pixel(x, y)[3];
        coverage += alpha / 255;
        if (alpha > 127) {
          top = Math.min(top, y);
          bottom = Math.max(bottom, y);
          left = Math.min(left, x);
          right = Math.max(right, x);
        }
      }
    }
    // Seen along (1, −1, 1), a cube of side s spans √2·s across and 4/√6·s (the taller) up;
    // the taller extent fills the image less the margin on both sides.
    const usable = size * (1 - 2 * THUMBNAIL_VIEW.margin);
    const side = usable / (4 / Math.sqrt(6)); // the cube's side in pixels
    const expectedArea = Math.sqrt(3) * side * side;
    assert.ok(
      Math.abs(coverage - expectedArea) < 0.01 * expectedArea,
      `covered ${coverage.toFixed(0)} px², expected ${expectedArea.toFixed(0)} (${((coverage / size / size) * 100).toFixed(1)} % of the image)`,
    );
    assert.ok(Math.abs(bottom - top + 1 - usable) <= 2, `height ${bottom - top + 1} px, expected ${usable.toFixed(1)}`);
    assert.ok(
      Math.abs(right - left + 1 - Math.SQRT2 * side) <= 2,
      `width ${right - left + 1} px, expected ${(Math.SQRT2 * side).toFixed(1)}`,
    );
    assert.ok(Math.abs((top + bottom + 1) / 2 - size / 2) <= 1, "centred vertically");
    assert.ok(Math.abs((left + right + 1) / 2 - size / 2) <= 1, "centred horizontally");
  });

  it("smooths the outline: pixels the silhouette crosses are partly covered", () => {
    const size = 128;
    const { data } = renderThumbnailRgba(boxMesh(), { size });
    let partial = 0;
    for (let p = 3; p < data.length; p += 4) if ((data[p] ?? 0) > 0 && (data[p] ?? 0) < 255) partial++;
    // The outline (a hexagon of circumradius usable/2, 3 × usable ≈ 340 px long) crosses about
    // 150 pixels between samples; without supersampling there would be none.
    assert.ok(partial > 75, `${partial} partly covered pixels`);
  });

  it("shows the +X, −Y and +Z faces of a box and shades them by how squarely they face the light", async () => {
    const mesh = boxMesh([0, 0, 0], [10, 10, 10]);
    const image = await decodePng(await renderThumbnail(mesh, { background: [255, 0, 0, 255] }));
    const centres: Record<string, Vec3> = { "+X": [10, 5, 5], "-Y": [5, 0, 5], "+Z": [5, 5, 10] };
    const shades = Object.entries(centres).map(([name, centre]) => {
      const [x, y] = pixelOf(mesh, 256, centre);
      const colour = image.pixel(x, y);
      const normal = BOX_FACES.find((f) => f.name === name)?.normal ?? [0, 0, 0];
      return { name, colour, light: dot(normal, THUMBNAIL_VIEW.light) };
    });
    for (const { name, colour } of shades) {
      assert.equal(colour[3], 255, `${name} opaque`);
      assert.ok(
        Math.abs(colour[0] - colour[1]) < 12 && Math.abs(colour[1] - colour[2]) < 12,
        `${name} is grey, not the red background: ${colour}`,
      );
    }
    shades.sort((a, b) => b.light - a.light);
    assert.deepEqual(
      shades.map((s) => s.name),
      ["+Z", "-Y", "+X"],
      "the light comes from above and a little left of the camera",
    );
    const [first, second, third] = shades.map((s) => brightness(s.colour));
    assert.ok((first ?? 0) > (second ?? 0) + 20 && (second ?? 0) > (third ?? 0) + 10, JSON.stringify(shades));
  });

  it("draws a face whose normal points at the light brighter than the same face with its normal turned away", async () => {
    // counter-clockwise on the screen: the quad faces the camera
    const quad: [number, number][][] = [
      [
        [78, 78],
        [78, 178],
        [178, 178],
      ],
      [
        [78, 78],
        [178, 178],
        [178, 78],
      ],
    ];
    const towardLight = await decodePng(await renderThumbnail(screenTriangles(256, quad, THUMBNAIL_VIEW.light)));
    const awayFromLight = await decodePng(
      await renderThumbnail(
        screenTriangles(
          256,
          quad,
          THUMBNAIL_VIEW.light.map((c) => -c),
        ),
      ),
    );
    const lit = brightness(towardLight.pixel(128, 140));
    const unlit = brightness(awayFromLight.pixel(128, 140));
    assert.ok(lit > 2 * unlit, `lit ${lit}, unlit ${unlit}`);
    // unlit means ambient only, still visible against the background
    assert.equal(awayFromLight.pixel(128, 140)[3], 255);
    assert.ok(
      Math.abs(unlit - THUMBNAIL_VIEW.ambient * brightness([...THUMBNAIL_VIEW.colour, 255])) < 2,
      `ambient ${unlit}`,
    );
  });

  it("lights a triangle seen from behind as if its normal were flipped (open meshes)", async () => {
    const frontFacing: [number, number][][] = [
      [
        [78, 78],
        [78, 178],
        [178, 128],
      ],
    ];
    const backFacing: [number, number][][] = [
      [
        [78, 78],
        [178, 128],
        [78, 178],
      ],
    ];
    const away = THUMBNAIL_VIEW.towardCamera.map((c) => -c);
    const front = await decodePng(await renderThumbnail(screenTriangles(256, frontFacing)));
    const back = await decodePng(await renderThumbnail(screenTriangles(256, backFacing, away)));
    assert.deepEqual(back.pixel(110, 128), front.pixel(110, 128));
    assert.ok(brightness(back.pixel(110, 128)) > 1.5 * THUMBNAIL_VIEW.ambient * 190);
  });

  it("hides what is behind: a box in front of another covers it, whatever the triangle order", () => {
    const near = boxMesh([10, -10, 10], [20, 0, 20]);
    const far = boxMesh([0, 0, 0], [10, 10, 10]);
    // near's centre (15, −5, 15) is on the line of sight through far's corner (10, 0, 10)
    const nearVertices = near.positions.length / 3;
    const both: TriangleMesh = {
      positions: new Float32Array([...near.positions, ...far.positions]),
      normals: new Float32Array([...near.normals, ...far.normals]),
      indices: new Uint32Array([...near.indices, ...Array.from(far.indices, (i) => i + nearVertices)]),
      faceIds: new Uint32Array([...near.faceIds, ...Array.from(far.faceIds, (f) => f + 6)]),
    };
    const farFirst: TriangleMesh = {
      ...both,
      indices: new Uint32Array([...both.indices.subarray(36), ...both.indices.subarray(0, 36)]),
    };
    // the same vertices (so the same bounding box and view), only one box's triangles
    const nearOnly: TriangleMesh = { ...both, indices: both.indices.subarray(0, 36) };
    const farOnly: TriangleMesh = { ...both, indices: both.indices.subarray(36) };
    const size = 128;
    const [image, reordered, nearImage, farImage] = [both, farFirst, nearOnly, farOnly].map(
      (m) => renderThumbnailRgba(m, { size }).data,
    );
    assert.ok(image && reordered && nearImage && farImage);
    assert.deepEqual(reordered, image);
    const alpha = (data: Uint8Array, x: number, y: number): number => data[(y * size + x) * 4 + 3] ?? 0;
    let overlap = 0;
    for (let y = 1; y < size - 1; y++) {
      for (let x = 1; x < size - 1; x++) {
        let solid = true; // away from the near box's outline, where the far box changes the edge pixels
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) solid &&= alpha(nearImage, x + dx, y + dy) === 255;
        if (!solid) continue;
        if (alpha(farImage, x, y) === 255) overlap++;
        const o = (y * size + x) * 4;
        assert.deepEqual(image.subarray(o, o + 4), nearImage.subarray(o, o + 4), `pixel ${x},${y}`);
      }
    }
    assert.ok(overlap > 200, `the far box lies behind ${overlap} pixels of the near one`);
  });

  it("draws a dark line where two B-rep faces meet, and none inside a face or on a single-face (STL) box", async () => {
    const faces = boxMesh([0, 0, 0], [10, 10, 10]);
    const stl = boxMesh([0, 0, 0], [10, 10, 10], 0);
    const withFaces = await decodePng(await renderThumbnail(faces));
    const single = await decodePng(await renderThumbnail(stl));
    // How much darker the 5 × 5 pixels around a point are with face ids than without. A line of
    // one pixel at edgeShade darkens about 5 pixels by (1 − edgeShade) of a face's shade (≥ 88).
    const darkening = ([x, y]: [number, number]): number => {
      let sum = 0;
      for (let dy = -2; dy <= 2; dy++)
        for (let dx = -2; dx <= 2; dx++)
          sum += brightness(single.pixel(x + dx, y + dy)) - brightness(withFaces.pixel(x + dx, y + dy));
      return sum;
    };
    const expected = 5 * (1 - THUMBNAIL_VIEW.edgeShade) * 88;
    for (const [name, point] of Object.entries({
      "top/front": [5, 0, 10],
      "top/right": [10, 5, 10],
      "front/right": [10, 0, 5],
    } as Record<string, Vec3>)) {
      const amount = darkening(pixelOf(faces, 256, point));
      assert.ok(
        amount > 0.7 * expected,
        `${name} edge darkened by ${amount.toFixed(0)}, expected about ${expected.toFixed(0)}`,
      );
    }
    for (const centre of [
      [5, 5, 10],
      [10, 5, 5],
      [5, 0, 5],
    ] as Vec3[]) {
      assert.equal(darkening(pixelOf(faces, 256, centre)), 0, `face centre ${centre}`);
    }
  });

  it("fills by the top-left rule: a pixel centre on a shared edge is drawn once, by the triangle to its right or below", () => {
    // With n samples per pixel and axis, sample column n·i has its centre at image x = i + 0.5/n
    // (30.25 at 2×), sample row n·j at y = j + 0.5/n. Triangles are placed with an edge exactly
    // through those centres; the pixel's other samples lie right of (below) the edge.
    const size = 64;
    const edgeX = 30 + 0.5 / THUMBNAIL_VIEW.supersample;
    const edgeY = 30 + 0.5 / THUMBNAIL_VIEW.supersample;
    const triangles: Record<string, [number, number][]> = {
      leftOfEdge: [
        [20, 20],
        [edgeX, 20],
        [edgeX, 44],
      ],
      rightOfEdge: [
        [edgeX, 20],
        [40, 44],
        [edgeX, 44],
      ],
      above: [
        [20, 20],
        [44, edgeY],
        [20, edgeY],
      ],
      below: [
        [20, edgeY],
        [44, edgeY],
        [20, 40],
      ],
    };
    for (const winding of ["clockwise", "counter-clockwise"] as const) {
      const triangle = (name: string): [number, number][] => {
        const t = triangles[name] ?? [];
        return winding === "clockwise" ? t : [...t].reverse();
      };
      const alpha = (names: string[], x: number, y: number): number =>
        renderThumbnailRgba(screenTriangles(size, names.map(triangle)), { size }).data[(y * size + x) * 4 + 3] ?? -1;
      assert.equal(alpha(["rightOfEdge"], 30, 36), 255, `${winding}: a left edge owns the centres on it`);
      assert.equal(alpha(["leftOfEdge"], 30, 36), 0, `${winding}: a right edge does not`);
      assert.equal(alpha(["leftOfEdge", "rightOfEdge"], 30, 36), 255, `${winding}: no crack between the two`);
      assert.equal(alpha(["below"], 24, 30), 255, `${winding}: a top edge owns the centres on it`);
      assert.equal(alpha(["above"], 24, 30), 0, `${winding}: a bottom edge does not`);
      assert.equal(alpha(["above", "below"], 24, 30), 255, `${winding}: no crack between the two`);
    }
  });

  it("leaves no background hole inside a finely tessellated sphere", () => {
    const mesh = sphereMesh(96, 48, 50);
    const size = 128;
    const image = renderThumbnailRgba(mesh, { size });
    const view = thumbnailProjection(meshBounds(mesh), size);
    const [cx, cy] = view.project([0, 0, 0]);
    const radius = 50 * view.scale;
    let inside = 0;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) > radius - 2) continue;
        inside++;
        assert.equal(image.data[(y * size + x) * 4 + 3], 255, `pixel ${x},${y}`);
      }
    }
    assert.ok(inside > 0.7 * Math.PI * radius * radius, `${inside} pixels checked`);
  });

  it("refuses a mesh without triangles with GeometryError empty_mesh rather than drawing an empty picture", async () => {
    const empty: TriangleMesh = {
      positions: new Float32Array(),
      normals: new Float32Array(),
      indices: new Uint32Array(),
      faceIds: new Uint32Array(),
    };
    await assert.rejects(
      renderThumbnail(empty),
      (error: unknown) => error instanceof GeometryError && error.code === "empty_mesh",
    );
  });

  it("refuses a size outside 16..1024 or not whole, and a background that is not four bytes", async () => {
    for (const size of [0, 15, 1025, 100.5, Number.NaN]) {
      await assert.rejects(renderThumbnail(boxMesh(), { size }), RangeError, `size ${size}`);
    }
    for (const background of [
      [0, 0, 0, 256],
      [0, 0, -1, 255],
      [0, 0, 0.5, 255],
      [0, 0, 0],
    ]) {
      await assert.rejects(
        renderThumbnail(boxMesh(), { background: background as Rgba }),
        RangeError,
        `background ${background}`,
      );
    }
  });
});
