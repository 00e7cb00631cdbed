/**
 * A DIN 333 form A centre drill as both catalogues describe it (standard-holemaking.ts, the
 * standard range; synthetic-catalogue.ts, the benchmark's): the same row gives the same cut.
 */
import type { CuttingPreset } from "../cutting-data.ts";
import type { ToolParameters } from "../tool.ts";
import type { DIN_333_A } from "./dimension-tables.ts";
import { startingPreset } from "./starting-values.ts";

type CentreDrillRow = (typeof DIN_333_A)[number];

export interface CentreDrillCut {
  /** how far from the tip the 60° countersink reaches the body's diameter, mm (0.01) */
  depth: number;
  params: ToolParameters;
  preset: CuttingPreset;
}

export function centreDrillCut(row: CentreDrillRow): CentreDrillCut {
  const depth = Math.round((row.pilotLength + (row.body - row.pilot) / 2 / Math.tan(Math.PI / 6)) * 100) / 100;
  return {
    depth,
    params: {
      CuttingDiameter: row.body,
      OverallLength: row.overall,
      PointAngle: 60,
      TipDiameter: row.pilot,
      TipLength: row.pilotLength,
      DepthOfCutMaximum: depth,
      ShankDiameter: row.body,
    },
    // speed at the body's edge: the pilot turns slower, as a centre drill should
    preset: startingPreset({
      workpiece: "steel",
      cuttingSpeed: 20,
      diameter: row.body,
      coolant: "flood",
      feed: { perRevolution: Math.max(0.02, row.pilot * 0.02) },
    }),
  };
}
