/** The colour each kind of operation's cuts are drawn in (also the tree's swatch), as CSS hex. */
const COLOURS: Record<string, string> = {
  face_milling: "#8c6d1f",
  roughing: "#1f77b4",
  rest_roughing: "#17becf",
  floor_finishing: "#2ca02c",
  wall_finishing: "#98df8a",
  surface_finishing: "#bcbd22",
  contour: "#9467bd",
  spot_drilling: "#ff7f0e",
  drilling: "#d62728",
  tapping: "#8c564b",
  helical_boring: "#e377c2",
  chamfering: "#7f7f7f",
};

export const ENTRY_COLOUR = "#e600e6";
export const RAPID_COLOUR = "#c0392b";

export function kindColour(kind: string): string {
  return COLOURS[kind] ?? "#444444";
}
