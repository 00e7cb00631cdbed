import assert from "node:assert/strict";
import { describe, it } from "node:test";
import PDFDocument from "pdfkit";
import { fakePlateHold, fakeViseHold } from "../../test/support/fake-plan.ts";
import { boxToFrame, setupFrame } from "../cam/frames.ts";
import type { Box3 } from "../math/box3.ts";
import { boxMesh, sphereMesh } from "../mesh/test-meshes.ts";
import { decimated, weld } from "./cluster-vertices.ts";
import { drawnBefore, drawingOrder } from "./draw-order.ts";
import { setupPicture } from "./picture.ts";
import { drawPicture } from "./picture-pdf.ts";
import type { Picture, Shape } from "./picture-shapes.ts";
import { pictureSvg } from "./picture-svg.ts";

/** an 80 x 40 x 20 block, its stock 2 mm round it, set up from +Z */
function blockSetup() {
  const part: Box3 = { min: [0, 0, 0], max: [80, 40, 20] };
  const stockInWorkpiece: Box3 = { min: [-2, -2, -8], max: [82, 42, 25] };
  const wcs = setupFrame([0, 0, 1], stockInWorkpiece);
  return { mesh: boxMesh(part.min, part.max), wcs, stock: boxToFrame(wcs, stockInWorkpiece) };
}

const polygons = (picture: Picture) => picture.shapes.filter((s) => s.kind === "polygon");
const label = (picture: Picture, text: string) =>
  picture.shapes.find((s): s is Extract<Shape, { kind: "label" }> => s.kind === "label" && s.text === text);

describe("the setup's picture", () => {
  it("draws the three faces of a block the setter sees, each lit differently, and not the three turned away", () => {
    const { mesh, wcs, stock } = blockSetup();
    const picture = setupPicture({ stock, wcs, workholding: null, mesh, originLabel: "G54" });
    // two triangles for each of top, front and right; the others are the arrows' heads
    const arrows = ["#d62828", "#1f9a3a", "#1f5fd6"];
    const part = polygons(picture).filter((p) => p.points.length === 3 && !arrows.includes(p.fill));
    assert.equal(part.length, 6);
    assert.equal(new Set(part.map((p) => p.fill)).size, 3);
    for (const p of picture.shapes.filter((s) => s.kind !== "label")) {
      for (const [x, y] of p.points) {
        assert.ok(x >= 0 && x <= picture.width && y >= 0 && y <= picture.height, `${x}, ${y} inside the picture`);
      }
    }
  });

  it("marks the origin at the stock's top front-left corner, X to the right, Y away, Z up, and names the offset", () => {
    const { mesh, wcs, stock } = blockSetup();
    const picture = setupPicture({ stock, wcs, workholding: null, mesh, originLabel: "G55" });
    // the datum symbol: four quarters round the origin, the first point of each its centre
    const datum = polygons(picture).filter((p) => p.stroke === "#111111");
    assert.equal(datum.length, 4);
    const [ox, oy] = datum[0]!.points[0]!;
    const x = label(picture, "X")!.at;
    const y = label(picture, "Y")!.at;
    const z = label(picture, "Z")!.at;
    assert.ok(x[0] > ox + 20, "X runs to the right");
    assert.ok(z[1] < oy - 20 && Math.abs(z[0] - ox) < 3, "Z runs straight up");
    assert.ok(y[1] < oy && y[0] > ox, "Y runs away from the setter, a little to the right");
    assert.ok(label(picture, "G55")!.at[0] < ox, "the offset's name beside the origin");
    // the stock's front-left top corner is where the origin is: the outline has a corner there
    const outline = picture.shapes.filter(
      (s): s is Extract<Shape, { kind: "line" }> => s.kind === "line" && s.stroke === "#e39b2d",
    );
    assert.equal(outline.length, 12);
    assert.ok(outline.some((l) => l.points.some(([px, py]) => Math.hypot(px - ox, py - oy) < 0.02)));
  });

  it("draws the workholding's jaws, parallels, plate and clamps as boxes, the plate cut down to the stock's surroundings", () => {
    const { mesh, wcs, stock } = blockSetup();
    const vise = setupPicture({ stock, wcs, workholding: fakeViseHold(stock), mesh, originLabel: "G54" });
    const bare = setupPicture({ stock, wcs, workholding: null, mesh, originLabel: "G54" });
    // two jaws and two parallels, at most three faces of each facing the setter
    const added = polygons(vise).length - polygons(bare).length;
    assert.ok(added >= 8 && added <= 12, `${added} faces of the vise`);
    const plate = fakePlateHold(stock);
    const held = setupPicture({ stock, wcs, workholding: plate, mesh, originLabel: "G54" });
    assert.ok(polygons(held).length > polygons(bare).length);
    assert.ok(held.height <= 420 && held.width === 720);
  });

  it("orders the solids as a ray meets them: back jaw and parallels before the part, front jaw and clamps after", () => {
    const part: Box3 = { min: [0, 0, -30], max: [80, 40, 0] };
    const backJaw: Box3 = { min: [-30, 40, -60], max: [110, 60, -20] };
    const frontJaw: Box3 = { min: [-30, -20, -60], max: [110, 0, -20] };
    const parallel: Box3 = { min: [-30, 0, -60], max: [110, 5, -30] };
    const clamp: Box3 = { min: [10, -10, 0], max: [30, 10, 12] };
    assert.ok(drawnBefore(backJaw, part) && !drawnBefore(part, backJaw));
    assert.ok(drawnBefore(part, frontJaw) && !drawnBefore(frontJaw, part));
    assert.ok(drawnBefore(parallel, part));
    assert.ok(drawnBefore(part, clamp));
    const order = drawingOrder([frontJaw, part, clamp, backJaw, parallel]);
    assert.ok(order.indexOf(3) < order.indexOf(1) && order.indexOf(4) < order.indexOf(1));
    assert.ok(order.indexOf(1) < order.indexOf(0) && order.indexOf(1) < order.indexOf(2));
  });

  it("merges a mesh of far too many triangles down to the budget, its shape within a grid cell", () => {
    const sphere = sphereMesh(256, 128, 50);
    const soup = weld({ positions: sphere.positions, indices: sphere.indices });
    assert.ok(soup.indices.length / 3 > 60_000);
    const fewer = decimated(soup, 5000);
    const count = fewer.indices.length / 3;
    assert.ok(count <= 5000 && count > 1000, `${count} triangles`);
    for (let i = 0; i < fewer.positions.length; i += 3) {
      const r = Math.hypot(fewer.positions[i]!, fewer.positions[i + 1]!, fewer.positions[i + 2]!);
      assert.ok(r > 46 && r < 50.01, `a vertex ${r} from the centre`);
    }
    assert.equal(decimated(soup, 1_000_000), soup, "within the budget it is left as it is");
  });

  it("is the same picture as SVG and as PDF paths: as many filled and stroked runs, the labels as text", async () => {
    const { mesh, wcs, stock } = blockSetup();
    const picture = setupPicture({ stock, wcs, workholding: fakeViseHold(stock), mesh, originLabel: "G54" });
    const svg = pictureSvg(picture, "Setup 1", "s1");
    const rules = new Map([...svg.matchAll(/\.(s1-\w+)\{([^}]*)\}/g)].map((m) => [m[1]!, m[2]!]));
    const paths = [...svg.matchAll(/<path class="([^"]+)"/g)].map((m) => rules.get(m[1]!)!);
    const filled = paths.filter((style) => !style.startsWith("fill:none")).length;
    const stroked = paths.length - filled;
    assert.equal([...svg.matchAll(/<text /g)].length, 4, "X, Y, Z and the offset");
    assert.ok(!/https?:\/\/(?!www\.w3\.org\/2000\/svg)/.test(svg), "no external reference");

    const doc = new PDFDocument({ compress: false, size: "A4" });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => doc.on("end", resolve));
    const height = drawPicture(doc, picture, { x: 30, y: 30, width: 360 });
    doc.end();
    await ended;
    const content = Buffer.concat(chunks).toString("latin1");
    assert.equal(content.match(/^B$/gm)?.length, filled, "fill-and-stroke runs");
    assert.equal(content.match(/^S$/gm)?.length, stroked, "stroked runs");
    assert.equal(content.match(/\) Tj/g)?.length ?? content.match(/TJ/g)?.length, 4, "the labels");
    assert.ok(Math.abs(height - (picture.height * 360) / picture.width) < 1e-9);
  });
});
