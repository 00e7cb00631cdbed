/** nist_ftc_10_asme1_ap242-e2.stp: its axis-aligned setups' programs judged by simcheck (test/support/simchecked-part.ts). */
import { describeSimcheckedPart } from "../support/simchecked-part.ts";

describeSimcheckedPart("nist_ftc_10_asme1_ap242-e2.stp");
