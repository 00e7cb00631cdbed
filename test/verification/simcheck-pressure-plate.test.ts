/** A pressure plate built by OCCT (test/support/pressure-plate.ts): its axis-aligned setups' programs judged by simcheck. */
import { pressurePlateBrep } from "../support/pressure-plate.ts";
import { describeSimcheckedPart } from "../support/simchecked-part.ts";

describeSimcheckedPart("a pressure plate", pressurePlateBrep);
