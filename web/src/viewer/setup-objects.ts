/**
 * What a setup shows besides its toolpaths, in the setup's frame (+Z the tool axis, the work
 * offset at the origin): the stock as a wireframe box, the workholding's jaws, parallels and
 * clamps as boxes, the WCS axes, and the part turned from the workpiece's coordinates into the
 * frame.
 */
import {
  AxesHelper,
  Box3,
  Box3Helper,
  BoxGeometry,
  type BufferGeometry,
  Color,
  Group,
  Matrix4,
  Mesh,
  MeshStandardMaterial,
  Vector3,
} from "three";
import type { Box, ViewerSetup } from "../../../contracts/viewer.ts";

const WORKHOLDING = new MeshStandardMaterial({
  color: 0xb07a3c,
  metalness: 0.3,
  roughness: 0.6,
  transparent: true,
  opacity: 0.55,
});
export const PART_MATERIAL = new MeshStandardMaterial({ color: 0xb9bec5, metalness: 0.2, roughness: 0.55 });

const vector = (v: readonly number[]) => new Vector3(v[0], v[1], v[2]);

function solidBox(box: Box): Mesh {
  const size = vector(box.max).sub(vector(box.min));
  const mesh = new Mesh(new BoxGeometry(size.x, size.y, size.z), WORKHOLDING);
  mesh.position.copy(vector(box.min).add(vector(box.max)).multiplyScalar(0.5));
  return mesh;
}

/** The matrix from the workpiece's coordinates into the setup's frame. */
export function workpieceToSetup(setup: ViewerSetup): Matrix4 {
  const x = vector(setup.wcs.x_axis);
  const z = vector(setup.wcs.z_axis);
  const y = new Vector3().crossVectors(z, x);
  const fromFrame = new Matrix4().makeBasis(x, y, z).setPosition(vector(setup.wcs.origin));
  return fromFrame.invert();
}

export function setupObjects(setup: ViewerSetup): Group {
  const group = new Group();
  const stock = new Box3(vector(setup.stock.min), vector(setup.stock.max));
  group.add(new Box3Helper(stock, new Color(0x333333)));
  const size = stock.getSize(new Vector3());
  group.add(new AxesHelper(Math.max(10, 0.35 * Math.max(size.x, size.y, size.z))));
  const holding = setup.workholding;
  if (holding) for (const box of [...holding.jaws, ...holding.supports, ...holding.clamps]) group.add(solidBox(box));
  return group;
}

/** The part's mesh (millimetres, workpiece coordinates) placed in the setup's frame. */
export function partMesh(geometry: BufferGeometry, setup: ViewerSetup): Mesh {
  const mesh = new Mesh(geometry, PART_MATERIAL);
  mesh.name = "part";
  mesh.applyMatrix4(workpieceToSetup(setup));
  return mesh;
}
