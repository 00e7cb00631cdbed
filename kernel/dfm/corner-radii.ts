/**
 * Internal corners along a tool axis, which an end mill turning about that axis rounds with at
 * least its own radius: concave cylindrical faces that are no hole (a pocket's corner fillet), and
 * sharp concave straight edges between two planes (radius 0) that no setup makes as a floor
 * meeting a wall. Grouped by feature (or by face, outside features), with the smallest radius.
 *
 * Two limits: the radius of the library's smallest end mill that reaches the corner's height
 * (a smaller radius cannot be made at all: error), and 1.5 mm, the radius of a 3 mm end mill
 * (smaller tools break easily and cut slowly, so a corner that needs one costs more: warning).
 */
import type { EdgeAnalysis, FaceAnalysis } from "../features/types.ts";
import { dot, type Vec3 } from "../math/vec3.ts";
import type { DesignFeedbackInput, DesignFeedbackItem } from "./types.ts";

/** a corner needing a tool under 3 mm */
export const SMALL_TOOL_RADIUS_MM = 1.5;
/** along an axis: within 1° */
const ALONG = Math.cos(Math.PI / 180);
/** across an axis: within 1° of perpendicular */
const ACROSS = Math.sin(Math.PI / 180);

interface Corner {
  faces: number[];
  radius: number;
  height: number;
}

export function cornerRadii(
  input: Pick<DesignFeedbackInput, "analysis" | "recognition" | "setups" | "tools">,
): DesignFeedbackItem[] {
  const { faces, edges } = input.analysis;
  const axes: { direction: Vec3; reached: Set<number> | null }[] =
    input.setups !== null && input.setups.setups.length > 0
      ? input.setups.setups.map((s) => ({ direction: s.direction, reached: new Set(s.reached) }))
      : BOX_AXES.map((direction) => ({ direction, reached: null }));
  const corners: Corner[] = [];
  for (const face of faces) {
    const corner = filletCorner(face, input, axes);
    if (corner) corners.push(corner);
  }
  for (const edge of edges) {
    const corner = sharpCorner(edge, faces, axes);
    if (corner) corners.push(corner);
  }
  const groups = new Map<string, { feature: number | null; corners: Corner[] }>();
  for (const corner of corners) {
    const feature = corner.faces.map((f) => input.recognition.faceFeature[f] ?? null).find((f) => f !== null) ?? null;
    const key = feature === null ? `face ${corner.faces[0]}` : `feature ${feature}`;
    const group = groups.get(key) ?? { feature, corners: [] };
    group.corners.push(corner);
    groups.set(key, group);
  }
  const items: DesignFeedbackItem[] = [];
  for (const group of groups.values()) {
    const item = groupItem(group.feature, group.corners, input.tools);
    if (item) items.push(item);
  }
  return items.sort((a, b) => (a.measured?.value ?? 0) - (b.measured?.value ?? 0) || a.faces[0]! - b.faces[0]!);
}

const BOX_AXES: Vec3[] = [
  [1, 0, 0],
  [-1, 0, 0],
  [0, 1, 0],
  [0, -1, 0],
  [0, 0, 1],
  [0, 0, -1],
];

function filletCorner(
  face: FaceAnalysis,
  input: Pick<DesignFeedbackInput, "recognition">,
  axes: readonly { direction: Vec3 }[],
): Corner | null {
  if (
    face.surface !== "cylinder" ||
    face.sense !== "concave" ||
    face.axis === null ||
    face.radius === null ||
    face.sweepAngle === null ||
    face.sweepAngle > 2 * Math.PI - 1e-3
  )
    return null;
  const feature = input.recognition.faceFeature[face.id];
  if (feature !== null && feature !== undefined && input.recognition.features[feature]?.hole !== undefined) return null;
  const axis = face.axis.direction;
  if (!axes.some((a) => Math.abs(dot(a.direction, axis)) > ALONG)) return null;
  const height = face.axialRange === null ? 0 : face.axialRange[1] - face.axialRange[0];
  return { faces: [face.id], radius: face.radius, height };
}

function sharpCorner(
  edge: EdgeAnalysis,
  faces: readonly FaceAnalysis[],
  axes: readonly { direction: Vec3; reached: Set<number> | null }[],
): Corner | null {
  if (edge.curve !== "line" || edge.convexity !== "concave" || edge.faces.length !== 2 || !(edge.length > 0))
    return null;
  const [a, b] = edge.faces.map((id) => faces[id]);
  if (a?.normal == null || b?.normal == null || a.surface !== "plane" || b.surface !== "plane") return null;
  const along: Vec3 = [
    (edge.end[0] - edge.start[0]) / edge.length,
    (edge.end[1] - edge.start[1]) / edge.length,
    (edge.end[2] - edge.start[2]) / edge.length,
  ];
  if (!axes.some((axis) => Math.abs(dot(axis.direction, along)) > ALONG)) return null;
  // a floor meeting a wall: a flat end mill along the floor's normal makes the corner sharp
  const floorAndWall = (floor: FaceAnalysis, wall: FaceAnalysis) =>
    axes.some(
      (axis) =>
        dot(axis.direction, floor.normal as Vec3) > ALONG &&
        Math.abs(dot(axis.direction, wall.normal as Vec3)) < ACROSS &&
        (axis.reached === null || axis.reached.has(floor.id)),
    );
  if (floorAndWall(a, b) || floorAndWall(b, a)) return null;
  return { faces: [a.id, b.id], radius: 0, height: edge.length };
}

function groupItem(
  feature: number | null,
  corners: readonly Corner[],
  tools: DesignFeedbackInput["tools"],
): DesignFeedbackItem | null {
  const smallest = corners.reduce((min, c) => (c.radius < min.radius ? c : min));
  const height = Math.max(...corners.map((c) => c.height));
  const endMills = tools.filter((t) => t.kind === "end_mill");
  const reaching = endMills.filter((t) => t.reach_mm + 1e-6 >= height);
  const tool = (reaching.length > 0 ? reaching : endMills).reduce<(typeof endMills)[number] | null>(
    (min, t) => (min === null || t.diameter_mm < min.diameter_mm ? t : min),
    null,
  );
  const faces = [...new Set(corners.flatMap((c) => c.faces))].sort((x, y) => x - y);
  const radius = Math.round(smallest.radius * 1000) / 1000;
  const base = { faces, feature, measured: { value: radius, unit: "mm" } };
  if (tool !== null && smallest.radius < tool.diameter_mm / 2 - 1e-6) {
    return {
      ...base,
      kind: "corner_radius_below_tool",
      severity: "error",
      limit: { value: tool.diameter_mm / 2, unit: "mm" },
      details: { tool_diameter_mm: tool.diameter_mm, corners: corners.length, height_mm: round2(height) },
      message_key: "corner_radius_below_tool",
    };
  }
  if (smallest.radius < SMALL_TOOL_RADIUS_MM - 1e-6) {
    return {
      ...base,
      kind: "corner_radius_small",
      severity: "warning",
      limit: { value: SMALL_TOOL_RADIUS_MM, unit: "mm" },
      details: { tool_diameter_mm: round2(2 * smallest.radius), corners: corners.length, height_mm: round2(height) },
      message_key: "corner_radius_small",
    };
  }
  return null;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
