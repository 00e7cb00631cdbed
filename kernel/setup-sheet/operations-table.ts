/**
 * A setup's operations in the order they run, one row each (operation-facts.ts), and a footer with
 * the lengths and times added up.
 */
import { formatDuration } from "../job/setup-facts.ts";
import type { OperationFacts } from "../job/operation-facts.ts";
import { mm, range, whole, wholeMm } from "./format.ts";
import type { Table } from "./sheet-types.ts";

export function operationsTable(operations: readonly OperationFacts[]): Table {
  const sum = (pick: (o: OperationFacts) => number): number => operations.reduce((total, o) => total + pick(o), 0);
  return {
    columns: [
      { title: "#", align: "right", weight: 3 },
      { title: "Strategy", align: "left", weight: 11 },
      { title: "T", align: "right", weight: 3 },
      { title: "Stepdown", align: "right", weight: 7.5 },
      { title: "Stepover", align: "right", weight: 7.5 },
      { title: "Allowance XY / Z", align: "right", weight: 8 },
      { title: "Spindle rpm", align: "right", weight: 6 },
      { title: "Feed mm/min", align: "right", weight: 6 },
      { title: "Z range", align: "right", weight: 9 },
      { title: "Cut mm", align: "right", weight: 6 },
      { title: "Rapid mm", align: "right", weight: 6 },
      { title: "Cut time", align: "right", weight: 8 },
      { title: "Rapid time", align: "right", weight: 7 },
      { title: "Time", align: "right", weight: 8 },
    ],
    rows: operations.map((o, i) => [
      String(i + 1),
      o.strategy,
      String(o.tool_number),
      mm(o.stepdown_mm),
      mm(o.stepover_mm),
      `${mm(o.allowance_xy_mm)} / ${mm(o.allowance_z_mm)}`,
      whole(o.spindle_rpm),
      whole(o.feed_mm_min),
      range(o.z_min, o.z_max),
      wholeMm(o.cutting_length_mm),
      wholeMm(o.rapid_length_mm),
      formatDuration(o.cutting_s),
      formatDuration(o.rapid_s),
      formatDuration(o.time_s),
    ]),
    footer: [
      "",
      "Operations",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      wholeMm(sum((o) => o.cutting_length_mm)),
      wholeMm(sum((o) => o.rapid_length_mm)),
      formatDuration(sum((o) => o.cutting_s)),
      formatDuration(sum((o) => o.rapid_s)),
      formatDuration(sum((o) => o.time_s)),
    ],
  };
}
