/**
 * Pieces of one feature: a passage another passage crosses comes apart into pieces that share no
 * edge, and each piece is a group of its own. A group all of whose planar faces lie on planes of
 * one other, larger group's faces (same plane, same side) is such a piece: it joins that group,
 * takes its class, and says so. MFCAD labels such pieces with the feature they were cut from.
 */
import type { Vec3 } from "../types.ts";
import type { PartIndex } from "./part-index.ts";
import type { PrismaticResult } from "./prismatic.ts";
import { dot } from "../../math/vec3.ts";

export interface Classified {
  group: number[];
  result: PrismaticResult;
}

export function mergeFragments(index: PartIndex, classified: Classified[]): Classified[] {
  const planesOf = (group: number[]) =>
    group.flatMap((id) => {
      const face = index.face(id);
      return face.surface === "plane" && face.normal !== null
        ? [{ normal: face.normal, offset: dot(face.normal, face.centroid) }]
        : [];
    });
  const samePlane = (a: { normal: Vec3; offset: number }, b: { normal: Vec3; offset: number }) =>
    index.sameDirection(a.normal, b.normal) && Math.abs(a.offset - b.offset) <= index.tolerance.distance * 10;
  // the largest first: pieces join the most complete group
  const order = [...classified].sort((a, b) => b.group.length - a.group.length);
  const merged: Classified[] = [];
  for (const item of order) {
    const planes = planesOf(item.group);
    const curved = item.group.some((id) => index.face(id).surface !== "plane");
    const host =
      item.group.length >= 2 && !curved && planes.length > 0
        ? merged.find(
            (other) =>
              other.group.length >= item.group.length &&
              planes.every((p) => planesOf(other.group).some((q) => samePlane(p, q))),
          )
        : undefined;
    if (host === undefined) {
      merged.push({ group: [...item.group], result: { ...item.result, reasons: [...item.result.reasons] } });
      continue;
    }
    host.group.push(...item.group);
    host.group.sort((a, b) => a - b);
    host.result.reasons.push(
      `R-fragment: faces ${item.group.join(", ")} lie on this feature's planes: a piece of it a crossing feature cut off`,
    );
  }
  return merged;
}
