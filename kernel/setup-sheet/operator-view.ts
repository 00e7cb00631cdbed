/**
 * Where the setter stands: in front of the machine, at -Y of the setup's frame, looking towards
 * +Y and down on the part from about 32 degrees, a little from the right so the part's front and
 * right sides both show (a view straight from the front would show the front face edge-on with
 * its neighbours). An orthographic projection: sizes read the same near and far.
 *
 * Screen coordinates: u to the right, v up, both in millimetres of the setup; depth grows towards
 * the viewer, so a painter draws the smallest depth first.
 */
import { cross, dot, normalise, type Vec3 } from "../math/vec3.ts";

const ELEVATION_DEG = 32;
/** towards the setter's right, from straight in front */
const AZIMUTH_DEG = 28;

const rad = (deg: number): number => (deg * Math.PI) / 180;

/** unit vector from the part towards the viewer, in the setup's frame */
const TOWARD_VIEWER: Vec3 = normalise([
  Math.sin(rad(AZIMUTH_DEG)) * Math.cos(rad(ELEVATION_DEG)),
  -Math.cos(rad(AZIMUTH_DEG)) * Math.cos(rad(ELEVATION_DEG)),
  Math.sin(rad(ELEVATION_DEG)),
]);
const SCREEN_RIGHT: Vec3 = normalise(cross([0, 0, 1], TOWARD_VIEWER));
const SCREEN_UP: Vec3 = cross(TOWARD_VIEWER, SCREEN_RIGHT);

/**
 * The light, fixed to the viewer: from above, a little left and in front, so the top, front and
 * right faces of a block get three different shades.
 */
const LIGHT: Vec3 = normalise([-0.35, -0.6, 1]);

export const OPERATOR_VIEW = {
  towardViewer: TOWARD_VIEWER,
  screenRight: SCREEN_RIGHT,
  screenUp: SCREEN_UP,
  light: LIGHT,
} as const;

/** A point of the setup's frame on the screen: [u, v, depth]. */
export function viewPoint(p: Vec3): Vec3 {
  return [dot(p, SCREEN_RIGHT), dot(p, SCREEN_UP), dot(p, TOWARD_VIEWER)];
}

/** True when a surface with this outward normal faces the viewer (its back faces are not drawn). */
export function facesViewer(normal: Vec3): boolean {
  return dot(normal, TOWARD_VIEWER) > 1e-9;
}

/** How lit a surface with this unit normal is: 0.38 in shadow to 1 facing the light. */
export function lightness(normal: Vec3): number {
  return 0.38 + 0.62 * Math.max(0, dot(normal, LIGHT));
}
