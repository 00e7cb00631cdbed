/** Which maker makes each of the 24 MFCAD++ classes. Rounds and edge chamfers are made on the finished cuts (edges.ts). */
import type { FeatureClass } from "../recognition/types.ts";
import type { ToolMaker } from "./context.ts";
import { chamferWedge } from "./edges.ts";
import { blindHole, oRing, throughHole } from "./holes.ts";
import { hexagonalPassage, rectangularPassage, triangularPassage } from "./passages.ts";
import { circularEndPocket, hexagonalPocket, rectangularPocket, triangularPocket } from "./pockets.ts";
import {
  circularThroughSlot,
  horizontalCircularEndBlindSlot,
  rectangularBlindSlot,
  rectangularThroughSlot,
  triangularThroughSlot,
  verticalCircularEndBlindSlot,
} from "./slots.ts";
import {
  circularBlindStep,
  rectangularBlindStep,
  rectangularThroughStep,
  slantedThroughStep,
  triangularBlindStep,
  twoSidesThroughStep,
} from "./steps.ts";

export const TOOL_MAKERS: Readonly<Record<Exclude<FeatureClass, "round">, ToolMaker>> = {
  chamfer: chamferWedge,
  through_hole: throughHole,
  triangular_passage: triangularPassage,
  rectangular_passage: rectangularPassage,
  "6sides_passage": hexagonalPassage,
  triangular_through_slot: triangularThroughSlot,
  rectangular_through_slot: rectangularThroughSlot,
  circular_through_slot: circularThroughSlot,
  rectangular_through_step: rectangularThroughStep,
  "2sides_through_step": twoSidesThroughStep,
  slanted_through_step: slantedThroughStep,
  o_ring: oRing,
  blind_hole: blindHole,
  triangular_pocket: triangularPocket,
  rectangular_pocket: rectangularPocket,
  "6sides_pocket": hexagonalPocket,
  circular_end_pocket: circularEndPocket,
  rectangular_blind_slot: rectangularBlindSlot,
  vertical_circular_end_blind_slot: verticalCircularEndBlindSlot,
  horizontal_circular_end_blind_slot: horizontalCircularEndBlindSlot,
  triangular_blind_step: triangularBlindStep,
  circular_blind_step: circularBlindStep,
  rectangular_blind_step: rectangularBlindStep,
};
