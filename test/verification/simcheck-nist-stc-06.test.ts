/** nist_stc_06_asme1_ap242-e3.stp: its axis-aligned setups' programs judged by simcheck (test/support/simchecked-part.ts), its curved faces finished in 3D. */
import { describeSimcheckedPart, fixtureStep, stockAround } from "../support/simchecked-part.ts";
import { itFinishesCurvedFacesIn3D } from "../support/surface-finished.ts";

const NAME = "nist_stc_06_asme1_ap242-e3.stp";
describeSimcheckedPart(NAME, fixtureStep(NAME), stockAround, itFinishesCurvedFacesIn3D);
