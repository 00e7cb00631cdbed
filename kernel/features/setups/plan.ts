/**
 * Setup planning over the part's triangles. A direction d (from the part towards the spindle)
 * reaches a face when
 *
 * 1. there is no undercut: the face's normal has no component against d (planes: their normal;
 *    curved faces: at each sample point, the facet's normal), and
 * 2. nothing hides it: a ray from each sample point of the face (triangle centroids, lifted a
 *    hair off the surface) along d leaves the part without hitting a triangle.
 *
 * Candidates are the stock box's six axes and the features' own directions (a tilted hole's
 * axis...). The smallest set of candidates that reaches every machinable face (every face but
 * the stock's, unless asked) is found exactly by trying subsets by size (cheap for the dozen or so
 * candidates; greedy beyond 16). A face no single direction reaches whole but several reach in
 * pieces is covered point by point and listed in `split_faces`; points no direction reaches are
 * reported in `unreachable_faces` with the reason per direction, never dropped.
 *
 * A direction the caller cannot set up (SetupOptions.excluded: the CAM planner's stock that
 * exceeds the machine's travel along it) is no setup: when the cover needs one, the setups are
 * chosen again among the others, the setups it would have been are listed in `left_out`, and
 * what only it reaches is unreachable, for that reason.
 */
import type { TriangleMesh } from "../../mesh/types.ts";
import type { Recognition } from "../recognition/types.ts";
import { AXIS_DIRECTIONS, cross, dot, length, normalise, sub } from "../../math/vec3.ts";
import type { PartAnalysis, Vec3 } from "../types.ts";
import { DirectionalRays } from "./raycast.ts";
import type {
  CandidateDirection,
  FeatureAccess,
  LeftOutSetup,
  Setup,
  SetupOptions,
  SetupPlan,
  UnreachableFace,
} from "./types.ts";

const PLANE_UNDERCUT = 1e-6;
/** facet normals of a curved face: tessellation noise allowed */
const CURVED_UNDERCUT = 0.02;
const DEFAULT_SAMPLES = 48;
/** triangles lower than this (twice the area over the longest edge) are not sampled: their normals are rounding noise */
const SLIVER_HEIGHT_MM = 1e-4;
const EXACT_LIMIT = 16;

interface Sample {
  face: number;
  point: Vec3;
  normal: Vec3;
}

export function planSetups(
  analysis: PartAnalysis,
  recognition: Recognition,
  mesh: TriangleMesh,
  options: SetupOptions = {},
): SetupPlan {
  const started = performance.now();
  const warnings: SetupPlan["warnings"] = [];
  const candidates = candidateDirections(recognition, options.extraDirections ?? []);
  const faceCount = analysis.faces.length;
  const box = analysis.bbox;
  const diagonal =
    box === null ? 1 : Math.hypot(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]);
  const lift = Math.max(diagonal * 2e-4, 1e-3);

  // triangles per face, samples per face
  const trianglesOf: number[][] = Array.from({ length: faceCount }, () => []);
  const triangleCount = mesh.indices.length / 3;
  for (let t = 0; t < triangleCount; t++) {
    const face = mesh.faceIds[mesh.indices[3 * t] as number] as number;
    trianglesOf[face]?.push(t);
  }
  const machinable = analysis.faces
    .map((face) => face.id)
    .filter((id) => options.includeStock === true || recognition.faceClasses[id] !== "stock");
  const samples: Sample[][] = Array.from({ length: faceCount }, () => []);
  const unmeshed: number[] = [];
  for (const id of machinable) {
    samples[id] = faceSamples(mesh, trianglesOf[id] ?? [], id, options.samplesPerFace ?? DEFAULT_SAMPLES);
    if (samples[id]!.length === 0) unmeshed.push(id);
  }
  if (unmeshed.length > 0)
    warnings.push({
      code: "faces_without_triangles",
      message: `${unmeshed.length} faces have no triangles; their reach is unknown and they are left out of the plan.`,
    });

  // visibility: per candidate, per face, per sample; and why not
  const visible: boolean[][][] = [];
  const why: string[][] = [];
  for (const candidate of candidates) {
    const d = candidate.direction;
    const rays = new DirectionalRays(mesh, d);
    const perFace: boolean[][] = Array.from({ length: faceCount }, () => []);
    const reasons: string[] = new Array<string>(faceCount).fill("");
    for (const id of machinable) {
      const face = analysis.faces[id]!;
      const list = samples[id]!;
      if (list.length === 0) continue;
      // planes: their exact normal; curved faces: each sample's facet normal
      if (face.surface === "plane" && face.normal !== null && dot(face.normal, d) < -PLANE_UNDERCUT) {
        perFace[id] = list.map(() => false);
        reasons[id] = `${candidate.name}: undercut (the face turns away from the tool)`;
        continue;
      }
      const hiders = new Set<number>();
      let turned = 0;
      perFace[id] = list.map((sample) => {
        if (face.surface !== "plane" && dot(sample.normal, d) < -CURVED_UNDERCUT) {
          turned++;
          return false;
        }
        const origin: Vec3 = [
          sample.point[0] + sample.normal[0] * lift + d[0] * lift,
          sample.point[1] + sample.normal[1] * lift + d[1] * lift,
          sample.point[2] + sample.normal[2] * lift + d[2] * lift,
        ];
        const hit = rays.firstHit(origin, 0);
        if (hit === null) return true;
        hiders.add(mesh.faceIds[mesh.indices[3 * hit.triangle] as number] as number);
        return false;
      });
      const parts: string[] = [];
      if (turned > 0)
        parts.push(
          turned === list.length
            ? "undercut (the face turns away from the tool)"
            : "partly undercut (part of the face turns away from the tool)",
        );
      if (hiders.size > 0)
        parts.push(`hidden behind face${hiders.size > 1 ? "s" : ""} ${[...hiders].sort((a, b) => a - b).join(", ")}`);
      if (parts.length > 0) reasons[id] = `${candidate.name}: ${parts.join(", ")}`;
    }
    visible.push(perFace);
    why.push(reasons);
  }

  const whole = (c: number, id: number) => visible[c]![id]!.length > 0 && visible[c]![id]!.every(Boolean);
  // among equal covers, prefer the directions the features say they are machined from
  const preference = candidates.map(
    (candidate) =>
      recognition.features.filter((f) =>
        [f.access_direction, ...f.other_access_directions].some(
          (d) => d !== null && dot(d, candidate.direction) > 1 - 1e-6,
        ),
      ).length,
  );
  const excludedBy = candidates.map((candidate) => options.excluded?.(candidate) ?? null);
  const coverBy = (allowed: readonly number[]) =>
    coverWith({ allowed, candidates, machinable, samples, visible, why, excludedBy, whole, preference, recognition });
  const every = candidates.map((_, c) => c);
  const unrestricted = coverBy(every);
  // a direction that cannot be set up is left out only when the plan needs it: the setups are
  // then chosen again among the others, which take over what they reach of its faces
  const needsExcluded = unrestricted.chosen.some((c) => excludedBy[c] !== null);
  const { setups, unreachable, splitFaces } = needsExcluded
    ? coverBy(every.filter((c) => excludedBy[c] === null))
    : unrestricted;
  const leftOut: LeftOutSetup[] = unrestricted.setups.flatMap((setup, i) => {
    const reason = excludedBy[unrestricted.chosen[i]!];
    return reason === null || reason === undefined ? [] : [{ ...setup, reason }];
  });
  const featureAccess: FeatureAccess[] = recognition.features.map((f) => ({
    feature: f.id,
    directions: candidates
      .filter((_, c) => f.faces.every((id) => !machinable.includes(id) || samples[id]!.length === 0 || whole(c, id)))
      .map((cand) => cand.name),
  }));
  return {
    candidates,
    setups,
    feature_access: featureAccess,
    unreachable_faces: unreachable,
    split_faces: splitFaces,
    left_out: leftOut,
    warnings,
    timeMs: performance.now() - started,
  };
}

interface CoverInput {
  /** the candidates a setup may be (indices into candidates) */
  allowed: readonly number[];
  candidates: readonly CandidateDirection[];
  machinable: readonly number[];
  samples: readonly Sample[][];
  visible: readonly boolean[][][];
  why: readonly string[][];
  /** per candidate: why it cannot be a setup, or null */
  excludedBy: readonly (string | null)[];
  whole(c: number, id: number): boolean;
  preference: readonly number[];
  recognition: Recognition;
}

/**
 * The fewest allowed candidates reaching every element (a face some allowed candidate reaches
 * whole, else its samples) they reach, as setups; what no allowed candidate reaches is unreachable.
 */
function coverWith(input: CoverInput): {
  chosen: number[];
  setups: Setup[];
  unreachable: UnreachableFace[];
  splitFaces: number[];
} {
  const { allowed, candidates, machinable, samples, visible, why, excludedBy, whole } = input;
  const elements: { face: number; sample: number | null }[] = [];
  const splitFaces: number[] = [];
  const unreachable: UnreachableFace[] = [];
  for (const id of machinable) {
    const list = samples[id]!;
    if (list.length === 0) continue;
    if (allowed.some((c) => whole(c, id))) {
      elements.push({ face: id, sample: null });
      continue;
    }
    let anyCovered = false,
      allCovered = true;
    list.forEach((_, s) => {
      if (allowed.some((c) => visible[c]![id]![s] === true)) {
        elements.push({ face: id, sample: s });
        anyCovered = true;
      } else allCovered = false;
    });
    // a direction that reaches the face but cannot be set up says why not
    const reasonOf = (c: number) =>
      !allowed.includes(c) && visible[c]![id]!.some(Boolean)
        ? `${candidates[c]!.name}: ${excludedBy[c] ?? "left out"}`
        : why[c]![id]!;
    const reasons = candidates
      .map((_, c) => reasonOf(c))
      .filter((reason) => reason !== "")
      .join("; ");
    if (!allCovered) {
      unreachable.push({
        face: id,
        reason: `${anyCovered ? "part of the face" : "the face"} is reached from no candidate direction (${reasons})`,
      });
    }
    if (anyCovered) splitFaces.push(id);
  }
  const covers = allowed.map((c) =>
    elements.map((element) =>
      element.sample === null ? whole(c, element.face) : visible[c]![element.face]![element.sample] === true,
    ),
  );
  const picked = cover(
    covers,
    elements.length,
    allowed.map((c) => input.preference[c] ?? 0),
  );

  // order: the setup reaching most elements first; each face goes to the first that reaches it
  picked.sort((a, b) => count(covers[b]!) - count(covers[a]!) || a - b);
  const chosen = picked.map((k) => allowed[k]!);
  const assigned = new Set<number>();
  const setups: Setup[] = chosen.map((c, i) => {
    const faces: number[] = [];
    const reached: number[] = [];
    for (const id of machinable) {
      if (whole(c, id)) reached.push(id);
      const reaches = whole(c, id) || (splitFaces.includes(id) && visible[c]![id]!.some(Boolean));
      if (!reaches || assigned.has(id)) continue;
      faces.push(id);
      if (!splitFaces.includes(id)) assigned.add(id);
    }
    const features = input.recognition.features
      .filter((f) => f.faces.every((id) => !machinable.includes(id) || whole(c, id)))
      .map((f) => f.id);
    return { index: i, name: candidates[c]!.name, direction: candidates[c]!.direction, faces, reached, features };
  });
  return { chosen, setups, unreachable, splitFaces };
}

/** The box's six axes, then each feature's own directions not along them. */
export function candidateDirections(recognition: Recognition, extra: CandidateDirection[]): CandidateDirection[] {
  const list: CandidateDirection[] = AXIS_DIRECTIONS.map((axis) => ({ name: axis.name, direction: axis.direction }));
  const known = (d: Vec3) => list.some((c) => dot(c.direction, d) > 1 - 1e-6);
  for (const c of extra) if (!known(c.direction)) list.push(c);
  for (const feature of recognition.features) {
    for (const d of [feature.access_direction, ...feature.other_access_directions]) {
      if (d === null || length(d) < 0.5 || known(d)) continue;
      if (list.length >= 24) break;
      list.push({ name: `feature ${feature.id} (${feature.class})`, direction: normalise(d) });
    }
  }
  return list;
}

/**
 * Points spread over the face: each triangle cut into n x n smaller ones (n by its size against
 * the spacing the face's budget of points allows), their centroids; at most about `most`.
 */
function faceSamples(mesh: TriangleMesh, triangles: number[], face: number, most: number): Sample[] {
  const p = mesh.positions,
    idx = mesh.indices;
  const measured = triangles
    .map((t) => {
      const a = 3 * (idx[3 * t] as number),
        b = 3 * (idx[3 * t + 1] as number),
        c = 3 * (idx[3 * t + 2] as number);
      const A: Vec3 = [p[a]!, p[a + 1]!, p[a + 2]!],
        B: Vec3 = [p[b]!, p[b + 1]!, p[b + 2]!],
        C: Vec3 = [p[c]!, p[c + 1]!, p[c + 2]!];
      const n = cross(sub(B, A), sub(C, A));
      const twiceArea = length(n);
      const longest = Math.max(length(sub(B, A)), length(sub(C, B)), length(sub(A, C)));
      return { A, B, C, area: twiceArea / 2, height: longest > 0 ? twiceArea / longest : 0, normal: normalise(n) };
    })
    .filter((tri) => tri.area > 0);
  // a sliver's normal is rounding noise (a cone's apex: triangles 1e-6 mm high, turned against
  // the face); it carries no area to sample, unless the face has nothing else
  const sound = measured.filter((tri) => tri.height >= SLIVER_HEIGHT_MM);
  const all = sound.length > 0 ? sound : measured;
  const total = all.reduce((sum, tri) => sum + tri.area, 0);
  if (total <= 0) return [];
  const spacing = Math.sqrt(total / most);
  const samples: Sample[] = [];
  for (const tri of all) {
    const n = Math.max(1, Math.min(8, Math.round(Math.sqrt(tri.area) / spacing)));
    const at = (u: number, v: number): Vec3 => {
      const w = 1 - u - v;
      return [
        w * tri.A[0] + u * tri.B[0] + v * tri.C[0],
        w * tri.A[1] + u * tri.B[1] + v * tri.C[1],
        w * tri.A[2] + u * tri.B[2] + v * tri.C[2],
      ];
    };
    for (let i = 0; i < n; i++) {
      for (let j = 0; i + j < n; j++) {
        samples.push({ face, point: at((i + 1 / 3) / n, (j + 1 / 3) / n), normal: tri.normal });
        if (i + j < n - 1) samples.push({ face, point: at((i + 2 / 3) / n, (j + 2 / 3) / n), normal: tri.normal });
      }
    }
  }
  if (samples.length <= 2 * most) return samples;
  const stride = samples.length / (2 * most);
  return Array.from({ length: 2 * most }, (_, k) => samples[Math.floor(k * stride)] as Sample);
}

function count(flags: boolean[]): number {
  return flags.reduce((sum, flag) => sum + (flag ? 1 : 0), 0);
}

/** The fewest candidates covering every element some candidate covers; exact up to EXACT_LIMIT candidates. */
function cover(covers: boolean[][], elements: number, preference: number[]): number[] {
  const k = covers.length;
  if (elements === 0) return [];
  const words = Math.ceil(elements / 32);
  const masks = covers.map((flags) => {
    const mask = new Uint32Array(words);
    flags.forEach((flag, e) => {
      if (flag) mask[e >>> 5]! |= 1 << (e & 31);
    });
    return mask;
  });
  const goal = new Uint32Array(words);
  for (const mask of masks) for (let w = 0; w < words; w++) goal[w]! |= mask[w]!;
  const covered = (subset: number[]): boolean => {
    for (let w = 0; w < words; w++) {
      let bits = 0;
      for (const c of subset) bits |= masks[c]![w]!;
      if (bits >>> 0 !== goal[w]) return false;
    }
    return true;
  };
  if (k <= EXACT_LIMIT) {
    for (let size = 1; size <= k; size++) {
      let best: number[] | null = null,
        bestCount = -1,
        bestPreference = -1;
      for (const subset of combinations(k, size)) {
        if (!covered(subset)) continue;
        // ties: the subset whose members reach the most, then the features' own directions, then the earliest
        const reach = subset.reduce((sum, c) => sum + count(covers[c]!), 0);
        const preferred = subset.reduce((sum, c) => sum + (preference[c] ?? 0), 0);
        if (reach > bestCount || (reach === bestCount && preferred > bestPreference)) {
          best = subset;
          bestCount = reach;
          bestPreference = preferred;
        }
      }
      if (best !== null) return best;
    }
  }
  // greedy
  const chosen: number[] = [];
  const done = new Array<boolean>(elements).fill(false);
  for (;;) {
    let best = -1,
      gain = 0;
    covers.forEach((flags, c) => {
      const g = flags.reduce((sum, flag, e) => sum + (flag && !done[e] ? 1 : 0), 0);
      if (g > gain) {
        gain = g;
        best = c;
      }
    });
    if (best < 0) return chosen;
    chosen.push(best);
    covers[best]!.forEach((flag, e) => {
      if (flag) done[e] = true;
    });
  }
}

function* combinations(n: number, size: number): Generator<number[]> {
  const pick = Array.from({ length: size }, (_, i) => i);
  for (;;) {
    yield [...pick];
    let i = size - 1;
    while (i >= 0 && pick[i] === n - size + i) i--;
    if (i < 0) return;
    pick[i]!++;
    for (let j = i + 1; j < size; j++) pick[j] = pick[j - 1]! + 1;
  }
}
