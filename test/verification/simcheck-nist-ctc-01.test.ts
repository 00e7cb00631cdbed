/** nist_ctc_01_asme1_ap242-e1.stp: its axis-aligned setups' programs judged by simcheck (test/support/simchecked-part.ts). */
import { describeSimcheckedPart } from "../support/simchecked-part.ts";

describeSimcheckedPart("nist_ctc_01_asme1_ap242-e1.stp");
