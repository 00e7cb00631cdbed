/** A region of the segmented mesh: the triangles that stand in for one face, and the surface fitted to them. */
import type { Vec3 } from "../types.ts";

type RegionKind = "plane" | "cylinder" | "other";

export interface Cylinder {
  /** unit */
  axis: Vec3;
  /** a point on the axis */
  point: Vec3;
  radius: number;
  /** +1: normals point away from the axis (convex), -1 towards it */
  sense: number;
}

export interface Region {
  kind: RegionKind;
  triangles: number[];
  area: number;
  normal: Vec3;
  cylinder: Cylinder | null;
}
