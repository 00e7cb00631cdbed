/**
 * A structural check of a STEP (ISO 10303-21) file that OCCT does not make: does it end with
 * END-ISO-10303-21; and is every entity it refers to (#123) defined? OCCT reads a file cut at a
 * line boundary without complaint and builds whatever the remaining entities allow (loose faces,
 * no solid); this check tells such a file apart from one that truly holds no solid.
 */
export interface StepIntegrity {
  /** ends with END-ISO-10303-21; */
  terminated: boolean;
  /** entities referred to but never defined */
  undefinedReferences: number;
  /** the first few of them, for the error details */
  undefinedSample: number[];
}

const SAMPLE = 5;

export function checkStepIntegrity(text: string): StepIntegrity {
  const terminated = /END-ISO-10303-21\s*;[\s\0]*$/.test(text.slice(-200));
  // strings ('it''s #1') and comments may hold '#' characters that are not references
  const code = text.replace(/'(?:[^']|'')*'|\/\*[\s\S]*?\*\//g, "''");
  const defined = new Set<number>();
  const referred = new Set<number>();
  for (const match of code.matchAll(/#(\d+)(\s*=)?/g)) {
    const id = Number(match[1]);
    if (match[2] !== undefined) defined.add(id);
    else referred.add(id);
  }
  const undefinedSample: number[] = [];
  let undefinedReferences = 0;
  for (const id of referred) {
    if (defined.has(id)) continue;
    undefinedReferences++;
    if (undefinedSample.length < SAMPLE) undefinedSample.push(id);
  }
  return { terminated, undefinedReferences, undefinedSample };
}
