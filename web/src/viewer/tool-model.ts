/**
 * The cutting tool as the viewer draws it at its position: the flutes (the cutting diameter up
 * the flute length), the shank up to the stick-out, and the holder's segments above it, each a
 * cylinder or cone about the tool axis (+Z), tip at the group's origin.
 */
import { CylinderGeometry, Group, Mesh, MeshStandardMaterial } from "three";
import type { ViewerTool } from "../../../contracts/viewer.ts";

const FLUTES = new MeshStandardMaterial({ color: 0xd4a017, metalness: 0.5, roughness: 0.4 });
const SHANK = new MeshStandardMaterial({ color: 0xb0b6bd, metalness: 0.6, roughness: 0.35 });
const HOLDER = new MeshStandardMaterial({
  color: 0x59606a,
  metalness: 0.4,
  roughness: 0.5,
  transparent: true,
  opacity: 0.8,
});

function segment(bottom: number, length: number, lower: number, upper: number, material: MeshStandardMaterial): Mesh {
  const geometry = new CylinderGeometry(
    Math.max(upper, 0.01) / 2,
    Math.max(lower, 0.01) / 2,
    Math.max(length, 0.01),
    32,
  );
  // CylinderGeometry stands on Y: turned onto Z, its middle at half its length
  geometry.rotateX(Math.PI / 2);
  const mesh = new Mesh(geometry, material);
  mesh.position.z = bottom + length / 2;
  return mesh;
}

export function toolModel(tool: ViewerTool): Group {
  const group = new Group();
  group.name = "tool";
  const flute = Math.min(tool.flute_length_mm || tool.stick_out_mm, tool.stick_out_mm || tool.flute_length_mm);
  group.add(segment(0, flute, tool.diameter_mm, tool.diameter_mm, FLUTES));
  const shank = tool.shank_diameter_mm || tool.diameter_mm;
  if (tool.stick_out_mm > flute) group.add(segment(flute, tool.stick_out_mm - flute, shank, shank, SHANK));
  let at = Math.max(tool.stick_out_mm, flute);
  for (const part of tool.holder) {
    group.add(segment(at, part.length_mm, part.lower_diameter_mm, part.upper_diameter_mm, HOLDER));
    at += part.length_mm;
  }
  return group;
}
