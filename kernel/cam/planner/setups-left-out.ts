/**
 * What the plan says of a setup left out because the stock exceeds the machine's travel in it
 * (setup-part.ts): one unmachined entry per setup, naming it and the axis, with the features and
 * faces no setup that fits makes. Those are unmachined for that reason alone; the faces are also
 * in the setup plan's unreachable faces (face_unreachable) and the holes among the features in
 * holesNoSetupMakes (hole_unreachable), so a reader of either list sees them.
 */
import type { SetupLeftOut, Unmachined } from "../plan-types.ts";
import type { PlannedPart } from "./read-part.ts";
import type { SetupPart } from "./setup-part.ts";

export function exceedsTravelUnmachined(leftOut: readonly SetupLeftOut[], kept: readonly SetupPart[], part: PlannedPart): Unmachined[] {
  const made = new Set(kept.flatMap((setup) => setup.features.map((feature) => feature.id)));
  const unreachable = new Set(part.setups.unreachable_faces.map((face) => face.face));
  return leftOut
    .filter((setup) => setup.reason === "exceeds_travel")
    .map((setup) => {
      const features = setup.features.filter((id) => !made.has(id));
      const faces = setup.faces.filter((id) => unreachable.has(id));
      const lost =
        features.length + faces.length === 0
          ? "the setups that fit make what it would have"
          : `not machined for it: ${[features.length > 0 ? `features ${features.join(", ")}` : "", faces.length > 0 ? `faces ${faces.join(", ")}` : ""].filter(Boolean).join(", ")}`;
      return {
        code: "setup_exceeds_travel",
        message: `${setup.message}: the setup is left out; ${lost}`,
        features,
        faces,
        volume_mm3: null,
      };
    });
}
