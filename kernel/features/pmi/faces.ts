/**
 * The ADVANCED_FACE entities a shape aspect stands for: its own GEOMETRIC_ITEM_SPECIFIC_USAGE
 * items, and those of its members (SHAPE_ASPECT_RELATIONSHIP from a composite, the relating
 * aspect, to each related one). A dimension used as a tolerance's target (a feature of size)
 * stands for the faces of the aspect it applies to.
 */
import { partOf, refOf, type StepModel } from "./part21.ts";

const FACE_TYPES = new Set(["ADVANCED_FACE", "FACE_SURFACE"]);
const USAGE_TYPES = ["GEOMETRIC_ITEM_SPECIFIC_USAGE", "ITEM_IDENTIFIED_REPRESENTATION_USAGE"];
const RELATIONSHIP_TYPES = ["SHAPE_ASPECT_RELATIONSHIP", "SHAPE_ASPECT_DERIVING_RELATIONSHIP"];

/** A function from a shape aspect (or dimension) to its face entities, over indexes built once. */
export function facesResolver(model: StepModel): (id: number) => number[] {
  const items = new Map<number, number[]>();
  const members = new Map<number, number[]>();
  const add = (map: Map<number, number[]>, key: number | null, value: number | null) => {
    if (key === null || value === null) return;
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for (const entity of model.values()) {
    for (const part of entity.parts) {
      // (name, description, definition, used_representation, identified_item)
      if (USAGE_TYPES.includes(part.type)) add(items, refOf(part.args[2]), refOf(part.args[4]));
      // (name, description, relating_shape_aspect, related_shape_aspect)
      if (RELATIONSHIP_TYPES.includes(part.type)) add(members, refOf(part.args[2]), refOf(part.args[3]));
    }
  }

  const resolve = (id: number, seen: Set<number>): number[] => {
    if (seen.has(id)) return [];
    seen.add(id);
    const entity = model.get(id);
    if (!entity) return [];
    if (entity.parts.some((part) => FACE_TYPES.has(part.type))) return [id];
    const size = partOf(entity, "DIMENSIONAL_SIZE");
    if (size) {
      const aspect = refOf(size[0]);
      return aspect === null ? [] : resolve(aspect, seen);
    }
    const found: number[] = [];
    for (const item of items.get(id) ?? []) {
      if (FACE_TYPES.has(model.get(item)?.parts[0]?.type ?? "")) found.push(item);
    }
    for (const member of members.get(id) ?? []) found.push(...resolve(member, seen));
    return found;
  };
  return (id) => resolve(id, new Set());
}
