/**
 * What the plan says of a setup left out because the stock exceeds the machine's travel in it
 * (setup-part.ts): one unmachined entry per setup, naming it and the axis, with the features and
 * faces it would have made that no setup that fits makes. The faces are also in the setup plan's
 * unreachable faces (face_unreachable, the reason naming the setup), and the holes among the
 * features in holesNoSetupMakes (hole_unreachable), so a reader of either list sees them.
 */
import type { SetupLeftOut, Unmachined } from "../plan-types.ts";

export function exceedsTravelUnmachined(leftOut: readonly SetupLeftOut[]): Unmachined[] {
  return leftOut
    .filter((setup) => setup.reason === "exceeds_travel")
    .map((setup) => {
      const { features, faces } = setup;
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
