/**
 * The thinnest wall worth machining, per material class. Thinner walls vibrate under the cutter,
 * bend away from it and warp as stresses are released, so they are machined with light cuts or
 * not at all.
 *
 * Source: Protolabs Network (Hubs), "CNC machining design guide": recommended minimum wall
 * thickness 0.8 mm for metals and 1.5 mm for plastics, feasible 0.5 mm and 1.0 mm. Steels and
 * stainless steels are stiff enough for the feasible 0.5 mm; aluminium, brass and titanium
 * (which springs back and chatters) keep the recommended 0.8 mm; plastics 1.5 mm, since they
 * also soften with the cutting heat. An unknown material takes the metals' 0.8 mm.
 */
import type { MaterialCategory } from "../materials/materials.ts";

export const MIN_WALL_MM: Readonly<Record<MaterialCategory, number>> = {
  aluminium: 0.8,
  brass: 0.8,
  titanium: 0.8,
  steel: 0.5,
  stainless: 0.5,
  plastic: 1.5,
};

export const UNKNOWN_MATERIAL_MIN_WALL_MM = 0.8;

export function minWallMm(material: MaterialCategory | null): number {
  return material === null ? UNKNOWN_MATERIAL_MIN_WALL_MM : MIN_WALL_MM[material];
}
