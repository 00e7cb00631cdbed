/**
 * Choosing tools for a feature's needs from the library's cutters only (cutter.ts): each answer
 * a cutter, or a refusal whose code, limiting dimension and message say what to add to the
 * library. The rules and tolerances, and why, are in README.md.
 *
 * | need                         | function             | module              |
 * |------------------------------|----------------------|---------------------|
 * | pocket, slot, step           | selectEndMill        | select-milling.ts   |
 * | facing                       | selectFaceMill       | select-milling.ts   |
 * | chamfer, countersink         | selectChamferMill    | select-chamfer.ts   |
 * | a hole's every tool          | selectHoleTools      | select-holes.ts     |
 * | drill, reamer, pre-drill     | selectDrill, selectReamer, selectPredrill | select-holes.ts |
 * | spot drill, tap, helical     | selectSpotDrill, selectTap, selectHelicalEndMill | select-holes.ts |
 */
export * from "./pick.ts";
export * from "./select-chamfer.ts";
export * from "./select-holes.ts";
export * from "./select-milling.ts";
