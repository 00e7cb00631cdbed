/**
 * A pressure plate, the kind of part issue 32 found the planner's verification hiding a gouge
 * and rapids on: a 120 x 80 x 20 plate with a 20 mm wide shoulder 8 mm down along its back,
 * stepped and counterbored holes from the top, the shoulder, the bottom and the front (-Y) face.
 * Built by OCCT (kernel/features/test-support.ts), as a client's B-rep.
 */
import type { OpenCascadeInstance } from "opencascade.js/dist/node.js";
import { writeBrep } from "../../kernel/geometry/brep.ts";
import { withOcctScope } from "../../kernel/geometry/occt-scope.ts";
import { cut, makeBox, makeCylinder } from "../../kernel/features/test-support.ts";

type Point = [number, number, number];

/** A hole of steps from `at` along `direction`: each step's diameter and depth, the next starting where it ends. */
interface SteppedHole {
  at: Point;
  direction: Point;
  steps: [diameter: number, depth: number][];
}

const UP: Point = [0, 0, 1];
const DOWN: Point = [0, 0, -1];
const BACK: Point = [0, 1, 0];

const HOLES: SteppedHole[] = [
  // M6 socket head screws through the plate, counterbored from the top
  ...[
    [15, 15],
    [105, 15],
    [15, 45],
    [105, 45],
  ].map(([x, y]) => ({
    at: [x, y, 20] as Point,
    direction: DOWN,
    steps: [
      [11, 6.5],
      [6.6, 14.5],
    ] as [number, number][],
  })),
  // a stepped blind bore in the top: a 20 mm seat 6 deep on an 8 mm bore 8 deeper
  {
    at: [60, 30, 20],
    direction: DOWN,
    steps: [
      [20, 6],
      [8, 8],
    ],
  },
  // M5 screws through the shoulder, counterbored from it
  ...[
    [30, 70],
    [90, 70],
  ].map(([x, y]) => ({
    at: [x, y, 12] as Point,
    direction: DOWN,
    steps: [
      [10, 5.4],
      [5.5, 7.6],
    ] as [number, number][],
  })),
  // a spigot seat in the bottom: 14 mm 3 deep on a 6 mm bore 5 deeper
  {
    at: [60, 55, 0],
    direction: UP,
    steps: [
      [14, 3],
      [6, 5],
    ],
  },
  // a port in the front face: 16 mm 4 deep on an 8 mm bore 20 deeper
  {
    at: [35, 0, 10],
    direction: BACK,
    steps: [
      [16, 4],
      [8, 20],
    ],
  },
];

/** The plate as text BREP, in millimetres. */
export function pressurePlateBrep(oc: OpenCascadeInstance): Uint8Array {
  return withOcctScope((scope) => {
    let part = makeBox(oc, scope, [120, 80, 20]);
    part = cut(oc, scope, part, makeBox(oc, scope, [122, 21, 9], [-1, 60, 12]));
    for (const hole of HOLES) {
      let from = hole.at;
      for (const [index, [diameter, depth]] of hole.steps.entries()) {
        // the first step starts 1 mm outside the face, so the cut leaves no skin
        const start: Point =
          index === 0 ? [from[0] - hole.direction[0], from[1] - hole.direction[1], from[2] - hole.direction[2]] : from;
        const length = index === 0 ? depth + 1 : depth;
        part = cut(oc, scope, part, makeCylinder(oc, scope, start, hole.direction, diameter / 2, length));
        from = [
          start[0] + hole.direction[0] * length,
          start[1] + hole.direction[1] * length,
          start[2] + hole.direction[2] * length,
        ];
      }
    }
    return writeBrep(oc, part);
  });
}
