/**
 * An operation's polyline (the route's typed arrays) as three.js lines: cuts in its kind's
 * colour, entries (plunges and ramps) in ENTRY_COLOUR, rapids dashed. Cuts and entries index
 * the route's positions as they arrived; only the rapids are copied (a dashed line needs its
 * own distances per vertex).
 */
import { BufferAttribute, BufferGeometry, Group, LineBasicMaterial, LineDashedMaterial, LineSegments } from "three";
import { MOVE_CLASS, type OperationPath } from "../api/toolpath-buffer.ts";
import { ENTRY_COLOUR, kindColour, RAPID_COLOUR } from "./kind-colours.ts";

function indexed(positions: BufferAttribute, pairs: Uint32Array, material: LineBasicMaterial): LineSegments {
  const geometry = new BufferGeometry();
  geometry.setAttribute("position", positions);
  geometry.setIndex(new BufferAttribute(pairs, 1));
  return new LineSegments(geometry, material);
}

/**
 * `stride` > 1 adds a coarse line for while the camera moves (`userData.coarse`): every
 * stride-th point joined, the operation's shape at a fraction of its segments.
 */
export function toolpathLines(path: OperationPath, kind: string, stride = 1): Group {
  const { positions, classes } = path;
  const n = classes.length;
  let cuts = 0;
  let entries = 0;
  let rapids = 0;
  for (let i = 1; i < n; i += 1) {
    const c = classes[i];
    if (c === MOVE_CLASS.rapid) rapids += 1;
    else if (c === MOVE_CLASS.plunge || c === MOVE_CLASS.ramp) entries += 1;
    else cuts += 1;
  }
  const cutPairs = new Uint32Array(2 * cuts);
  const entryPairs = new Uint32Array(2 * entries);
  const rapidPoints = new Float32Array(6 * rapids);
  let c0 = 0;
  let e0 = 0;
  let r0 = 0;
  for (let i = 1; i < n; i += 1) {
    const c = classes[i];
    if (c === MOVE_CLASS.rapid) {
      rapidPoints.set(positions.subarray(3 * i - 3, 3 * i + 3), r0);
      r0 += 6;
    } else if (c === MOVE_CLASS.plunge || c === MOVE_CLASS.ramp) {
      entryPairs[e0++] = i - 1;
      entryPairs[e0++] = i;
    } else {
      cutPairs[c0++] = i - 1;
      cutPairs[c0++] = i;
    }
  }
  const shared = new BufferAttribute(positions, 3);
  const group = new Group();
  group.add(indexed(shared, cutPairs, new LineBasicMaterial({ color: kindColour(kind) })));
  group.add(indexed(shared, entryPairs, new LineBasicMaterial({ color: ENTRY_COLOUR })));
  const rapidGeometry = new BufferGeometry();
  rapidGeometry.setAttribute("position", new BufferAttribute(rapidPoints, 3));
  const rapidLines = new LineSegments(
    rapidGeometry,
    new LineDashedMaterial({ color: RAPID_COLOUR, dashSize: 2, gapSize: 2, transparent: true, opacity: 0.7 }),
  );
  rapidLines.computeLineDistances();
  group.add(rapidLines);
  if (stride > 1 && n > 1) {
    const steps = Math.ceil((n - 1) / stride);
    const coarsePairs = new Uint32Array(2 * steps);
    for (let s = 0; s < steps; s += 1) {
      coarsePairs[2 * s] = s * stride;
      coarsePairs[2 * s + 1] = Math.min((s + 1) * stride, n - 1);
    }
    const coarse = indexed(shared, coarsePairs, new LineBasicMaterial({ color: kindColour(kind) }));
    coarse.visible = false;
    group.userData.coarse = coarse;
    group.add(coarse);
  }
  return group;
}
