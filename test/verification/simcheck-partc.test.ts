/** partC.step: its axis-aligned setups' programs judged by simcheck (test/support/simchecked-part.ts). */
import { describeSimcheckedPart } from "../support/simchecked-part.ts";

describeSimcheckedPart("partC.step");
