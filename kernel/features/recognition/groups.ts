/**
 * Feature candidates: the faces that are not stock, joined where they meet at a concave edge (a
 * pocket's floor and walls, a slot's walls), at a smooth edge next to a concave curved face (a
 * fillet inside a pocket); a lone plane joins the group whose plane it continues across a flat
 * edge (a floor the modeller split in pieces). Features that cut into each other meet at convex edges (where two
 * outlines cross the material stands out), so they fall into separate groups.
 */
import type { PartIndex } from "./part-index.ts";

export function concaveGroups(index: PartIndex, candidates: ReadonlySet<number>): number[][] {
  const parent = new Map<number, number>();
  for (const id of candidates) parent.set(id, id);
  const find = (x: number): number => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root) as number;
    while (parent.get(x) !== root) {
      const next = parent.get(x) as number;
      parent.set(x, root);
      x = next;
    }
    return root;
  };
  for (const id of candidates) {
    for (const n of index.neighbours[id] ?? []) {
      if (n.face <= id || !candidates.has(n.face)) continue;
      if (joins(index, id, n.face, n.convexity)) parent.set(find(id), find(n.face));
    }
  }
  // a lone plane (no concave edge at all) that continues a plane of another group across a flat
  // edge is a piece of that face the modeller split (a floor where two tools overlapped): it
  // joins. Planes of two groups meeting flat stay apart: two features' coplanar walls.
  const concaveSomewhere = (id: number) =>
    (index.neighbours[id] ?? []).some((n) => candidates.has(n.face) && joins(index, id, n.face, n.convexity));
  for (const id of candidates) {
    const face = index.face(id);
    if (face.surface !== "plane" || face.normal === null || concaveSomewhere(id)) continue;
    // one group only (the plane it shares most edge with): a lone piece between two features'
    // coplanar walls must not tie them together
    let best: { face: number; length: number } | null = null;
    for (const n of index.neighbours[id] ?? []) {
      const other = index.face(n.face);
      if (
        !candidates.has(n.face) ||
        n.convexity !== "smooth" ||
        other.surface !== "plane" ||
        other.normal === null ||
        !index.sameDirection(face.normal, other.normal)
      )
        continue;
      if (best === null || n.length > best.length) best = { face: n.face, length: n.length };
    }
    if (best !== null) parent.set(find(id), find(best.face));
  }
  const groups = new Map<number, number[]>();
  for (const id of [...candidates].sort((a, b) => a - b)) {
    const root = find(id);
    const list = groups.get(root);
    if (list) list.push(id);
    else groups.set(root, [id]);
  }
  return [...groups.values()];
}

function joins(index: PartIndex, a: number, b: number, convexity: string): boolean {
  if (convexity === "concave") return true;
  if (convexity !== "smooth") return false;
  const fa = index.face(a),
    fb = index.face(b);
  return fa.sense === "concave" || fb.sense === "concave";
}
