/**
 * The design feedback of a part: every rule of this folder over its faces, features, setups and
 * the library's tools, errors first. Pure and fast (ray casts on planar faces are the only
 * geometry): the planner runs it on the part it has read and keeps the items with the plan.
 */
import { cornerRadii } from "./corner-radii.ts";
import { deepHoles, deepPockets } from "./deep-features.ts";
import { tiltedSetups, unreachableFaces } from "./reach.ts";
import { thinWalls } from "./thin-walls.ts";
import { threadsWithoutTap } from "./threads.ts";
import type { DesignFeedbackInput, DesignFeedbackItem } from "./types.ts";

export function designFeedback(input: DesignFeedbackInput): DesignFeedbackItem[] {
  const features = input.recognition.features;
  const featureFaces = new Map(features.map((f) => [f.id, f.faces]));
  const items = [
    ...(input.setups === null ? [] : unreachableFaces(input.setups, input.recognition.faceFeature)),
    ...cornerRadii(input),
    ...threadsWithoutTap(features, input.tools),
    ...thinWalls(input),
    ...deepPockets(features),
    ...deepHoles(features),
    ...(input.setups === null ? [] : tiltedSetups(input.setups, featureFaces)),
  ];
  // stable: within a severity, the rules' order
  return [...items.filter((i) => i.severity === "error"), ...items.filter((i) => i.severity === "warning")];
}
