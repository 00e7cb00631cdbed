/**
 * `__proto__` as a key of a JSON object. JSON.parse makes it an ordinary own property, but
 * anything that copies the object by assignment (zod's records, a merge) sets the copy's
 * prototype with it instead: the key is dropped without a word, or the value turns up as
 * inherited fields. No body of this API has a use for the key, so it is refused wherever it is.
 */

/** The paths ("remote_data.x.1.__proto__") of every `__proto__` key in a parsed JSON value. */
export function protoKeyPaths(value: unknown): string[] {
  const found: string[] = [];
  // walked without recursion: the value may be deep
  const stack: [unknown, string][] = [[value, ""]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, path] = next;
    if (typeof node !== "object" || node === null) continue;
    for (const [key, child] of Object.entries(node)) {
      const childPath = path === "" ? key : `${path}.${key}`;
      if (key === "__proto__") found.push(childPath);
      stack.push([child, childPath]);
    }
  }
  return found.sort();
}
