/**
 * What 3-axis setups of the stock's box do not make: faces no direction reaches (an undercut, a
 * face inside a closed cavity), and features only a direction off the box's axes reaches whole,
 * so that the part must be set up tilted (an angle plate, a sine vise or a 4th/5th axis). From
 * the setup plan (kernel/features/setups).
 */
import type { SetupPlan } from "../features/setups/types.ts";
import { AXIS_DIRECTIONS, angleBetween, isAxisDirection, type Vec3 } from "../math/vec3.ts";
import type { DesignFeedbackItem } from "./types.ts";

export function unreachableFaces(setups: SetupPlan, faceFeature: readonly (number | null)[]): DesignFeedbackItem[] {
  return setups.unreachable_faces.map((face) => ({
    kind: "face_unreachable",
    severity: "error",
    faces: [face.face],
    feature: faceFeature[face.face] ?? null,
    measured: null,
    limit: null,
    details: { reason: face.reason },
    message_key: "face_unreachable",
  }));
}

export function tiltedSetups(
  setups: SetupPlan,
  featureFaces: ReadonlyMap<number, readonly number[]>,
): DesignFeedbackItem[] {
  const byName = new Map(setups.candidates.map((c) => [c.name, c.direction]));
  const items: DesignFeedbackItem[] = [];
  for (const access of setups.feature_access) {
    if (access.directions.length === 0 || access.directions.some((name) => onAxis(byName.get(name)))) continue;
    const direction = byName.get(access.directions[0] as string);
    if (direction === undefined) continue;
    items.push({
      kind: "tilted_setup",
      severity: "warning",
      faces: [...(featureFaces.get(access.feature) ?? [])],
      feature: access.feature,
      measured: { value: Math.round(tiltDeg(direction) * 10) / 10, unit: "°" },
      limit: { value: 0, unit: "°" },
      details: { direction: direction.map((c) => Math.round(c * 1000) / 1000).join(", ") },
      message_key: "tilted_setup",
    });
  }
  return items;
}

/** a direction of the box's axes (by its vector: a hole's own axis may be one) */
function onAxis(direction: Vec3 | undefined): boolean {
  return direction !== undefined && isAxisDirection(direction, 1e-4);
}

/** the angle between a direction and the nearest axis of the box */
function tiltDeg(direction: Vec3): number {
  let smallest = Math.PI;
  for (const axis of AXIS_DIRECTIONS) smallest = Math.min(smallest, angleBetween(direction, axis.direction));
  return (smallest * 180) / Math.PI;
}
