/**
 * The simulated stock as a three.js mesh: stock-mesh.ts's triangles and per-vertex colours,
 * flat-lit, placed in the setup's frame as the part is (the triangles are in the part's
 * coordinates).
 */
import { BufferAttribute, BufferGeometry, Mesh, MeshLambertMaterial } from "three";
import type { ViewerSetup } from "../../../contracts/viewer.ts";
import { workpieceToSetup } from "./setup-objects.ts";
import type { StockMesh } from "./stock-mesh.ts";

/** sRGB colours (0..1) as the linear ones three.js expects of vertex colours, so they show as given */
export function linearColours(colours: Float32Array): Float32Array {
  return colours.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
}

const STOCK_MATERIAL = new MeshLambertMaterial({ vertexColors: true });

export function stockLayer(stock: StockMesh, setup: ViewerSetup): Mesh {
  const geometry = new BufferGeometry();
  geometry.setAttribute("position", new BufferAttribute(stock.positions, 3));
  geometry.setAttribute("color", new BufferAttribute(linearColours(stock.colours), 3));
  // not indexed: each triangle's normal is its own, so the cells' tops and walls read apart
  geometry.computeVertexNormals();
  const mesh = new Mesh(geometry, STOCK_MATERIAL);
  mesh.name = "stock";
  mesh.applyMatrix4(workpieceToSetup(setup));
  return mesh;
}
