/** Completeness figures as a planner gives them (kernel/cam/plan-types.ts), for the quote's own tests. */
import type { Completeness } from "../../kernel/cam/plan-types.ts";

/** two holes not drilled and 3.14 % of the surface under material left: incomplete on two counts */
export const INCOMPLETE: Completeness = {
  status: "incomplete",
  reasons: [
    { code: "hole_not_made", message: "2 holes are not made: features 12, 14" },
    {
      code: "material_left",
      message: "material thicker than 0.05 mm is left on 3.14 % of the part's surface (limit 0.5 %)",
    },
  ],
  material_left: {
    volume_mm3: 1234.6,
    pct_of_removable: 2.349,
    surface_pct: 3.14,
    surface_limit_pct: 0.5,
    tolerance_mm: 0.05,
  },
  holes_not_made: [12, 14],
  faces_unreachable: [],
  operations_dropped: 1,
  tools_missing: [{ tool_type: "Drill", diameter_mm: 6.8, purpose: "drill feature 12", features: [12] }],
  setups_left_out: [],
  sharp_corners: [],
};
