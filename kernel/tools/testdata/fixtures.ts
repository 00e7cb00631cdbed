/** Inputs the tests of kernel/tools share: plain JSON as a client would send it. */

/** An SK40 ER32 collet chuck whose profile sums to its 70 mm gauge length. */
export const colletChuck = {
  uuid: "5b2f3c1e-8a7d-4e6f-9a0b-1c2d3e4f5a6b",
  name: "SK40 ER32 collet chuck A70",
  stacking_group: "Holder",
  manufacturer: "Acme",
  clamping: "collet_chuck",
  spindle_interface: "SK40 DIN 69871",
  clamping_range_mm: { min: 2, max: 20 },
  gauge_length_mm: 70,
  segments: [
    { length_mm: 15.9, upper_diameter_mm: 63, lower_diameter_mm: 63 },
    { length_mm: 32.1, upper_diameter_mm: 50, lower_diameter_mm: 50 },
    { length_mm: 19, upper_diameter_mm: 50, lower_diameter_mm: 50 },
    { length_mm: 3, upper_diameter_mm: 50, lower_diameter_mm: 44 },
  ],
};
