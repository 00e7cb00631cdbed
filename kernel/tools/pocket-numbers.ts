/**
 * Pocket numbers within one equipment library: each is one magazine pocket, so two assemblies
 * of a library never share one (a shop with two machines keeps one library per magazine, and the
 * same number may be in both). The violation names the other assembly; its field is the later
 * one's, so a client sees which to change.
 */
import { isRecord, type Violation } from "./violation.ts";

/** An assembly as far as its pocket number and its names go. */
export interface PocketHolder {
  uuid: string;
  name: string;
  pocket_number?: number | undefined;
}

/** How an assembly is named in a message: its name and its uuid. */
export function assemblyLabel(assembly: PocketHolder): string {
  return `"${assembly.name}" (${assembly.uuid})`;
}

/** The violation of `assembly` taking a pocket number `other` has (field relative to the assembly). */
export function pocketNumberTaken(assembly: PocketHolder, other: PocketHolder, otherPath: string): Violation {
  return {
    field: "pocket_number",
    rule: "unique",
    message: `${assemblyLabel(assembly)} cannot take T${assembly.pocket_number}: it is the pocket number of ${otherPath} ${assemblyLabel(other)}, and one pocket holds one tool`,
  };
}

/**
 * The repeats of a list of assemblies (raw input: what is not an assembly with a whole pocket
 * number is passed over, its own checks name it): `<index>.pocket_number` of every later one.
 */
export function duplicatePocketNumbers(list: readonly unknown[]): Violation[] {
  const first = new Map<number, { index: number; assembly: PocketHolder }>();
  const out: Violation[] = [];
  list.forEach((item, index) => {
    const number = isRecord(item) ? item.pocket_number : undefined;
    if (!isRecord(item) || typeof number !== "number" || !Number.isInteger(number)) return;
    const assembly: PocketHolder = { uuid: String(item.uuid), name: String(item.name), pocket_number: number };
    const earlier = first.get(number);
    if (earlier === undefined) {
      first.set(number, { index, assembly });
      return;
    }
    const taken = pocketNumberTaken(assembly, earlier.assembly, `assemblies.${earlier.index}`);
    out.push({ ...taken, field: `${index}.${taken.field}` });
  });
  return out;
}
