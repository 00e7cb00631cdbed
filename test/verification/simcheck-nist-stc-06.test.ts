/** nist_stc_06_asme1_ap242-e3.stp: its axis-aligned setups' programs judged by simcheck (test/support/simchecked-part.ts). */
import { describeSimcheckedPart } from "../support/simchecked-part.ts";

describeSimcheckedPart("nist_stc_06_asme1_ap242-e3.stp");
