/**
 * One setup of the plan as its operations see it: the frame, the stock and the part in it, and
 * the recognised features and holes this setup makes.
 *
 * The setups are the setup plan's directions (kernel/features/setups), run from +Z first and -Z
 * second, then the sides: a block in a vise is machined on top, turned over, and only then
 * clamped on its side. A +Z setup is added when the stock stands above the part and the plan
 * has none: the side setups would have to reach down the whole part to take that slab off. A -Z
 * setup likewise when the stock extends below the part: no other setup reaches under the part,
 * and a block whose features all face up, planned from +Z alone in a stock 10 mm deeper than it,
 * kept its whole allowance (46 % of the removable volume of a 100 x 60 x 30 block in a stock
 * also 5 mm wider on every side). Such an added setup has no features of its own: it faces its
 * allowance off (without include_face_milling its roughing takes it) and mills what it reaches
 * as any setup does. Held in a vise, the first setup held grips the blank's lowest band in its
 * own frame; when that band reaches into the part, the setup opposite it is added to machine it
 * turned over: -Z after +Z, +Y after a first -Y (a blank too wide for the vise from above). And
 * a deep milled through feature gets a setup from each of its ends (otherEnds).
 *
 * A tilted setup (a feature's own direction) is there for the faces no setup along the
 * workpiece's axes reaches whole: its focus, those it reaches whole and the split faces it
 * reaches part of, less the ones an axis setup reaches whole. It mills round them only, and
 * leaves the rest to the axis setups (milling-operations.ts). Milling all it reached, NIST
 * STC-06's three tilted setups (there for the samples of its domes and fillets no axis reaches)
 * roughed and finished the part from three angles: 62 of its 191 minutes of machining for 0.34 %
 * of the material, and nearly a third of its planning.
 *
 * A feature is made in the first setup (in that order) that reaches all of it; a hole in the
 * first of those whose tool axis runs along the hole into its entrance. A through hole
 * counterbored at both ends, which no one setup reaches, is made half from each end. Holes no
 * setup makes are the plan's to report (holesNoSetupMakes).
 *
 * A setup whose stock exceeds the machine's travel (travel.ts) is left out before features are
 * shared out, so the setups that fit take what they reach of its features: the setup plan was
 * chosen without such directions already (readPart), and its left_out lists the setups it would
 * have had; the setups added here are checked the same way.
 */
import type { Feature } from "../../features/recognition/types.ts";
import { directionName, dot, isAxisDirection, projectAlong, scale } from "../../math/vec3.ts";
import type { Setup } from "../../features/setups/types.ts";
import { boxCorners } from "../../math/box3.ts";
import { boxToFrame, setupFrame, soupToFrame } from "../frames.ts";
import type { Trough } from "../milling/troughs.ts";
import { halfFromItsEnd, holeInSetup, type SetupHole } from "../holes/setup-hole.ts";
import { triangleFaceIds } from "../holes/chamfer-edges.ts";
import type { SetupLeftOut } from "../plan-types.ts";
import type { Box3, Cutter, Frame, TriangleSoup, Vec3 } from "../types.ts";
import type { PlannedPart } from "./read-part.ts";
import { setupTravelExcess, type MachineTravel } from "./travel.ts";
import { surfaceFaces, type SurfaceFaces } from "./surface-faces.ts";
import { setupTroughs } from "./troughs.ts";

export interface SetupPart {
  index: number;
  name: string;
  direction: Vec3;
  frame: Frame;
  /** in the setup's frame */
  stock: Box3;
  /** the part's triangles in the setup's frame */
  soup: TriangleSoup;
  /** per triangle of `soup`: its face id */
  triangleFaces: Uint32Array;
  /** features made here (holes among them) */
  features: Feature[];
  holes: SetupHole[];
  /** a tilted setup's faces no axis setup reaches whole (see the header): it mills round these only; null on an axis setup */
  focus: number[] | null;
  /** the machinable faces the setup plan chose this direction for (the first to reach them) */
  faces: number[];
  /** what a setup the setup plan does not have was added for ("the stock below the part"); null for the plan's own */
  addedFor: string | null;
  /** the troughs it makes with a ball end mill (troughs.ts): the first setup they open towards */
  troughs: Trough[];
  /** the sloped and curved faces it finishes in 3D (surface-faces.ts) */
  surfaces: SurfaceFaces;
  /**
   * what holds the stock, as boxes in the setup's frame already grown by the clearance to keep
   * (keep-out.ts): milling keeps out of them, a hole whose tool would reach one is not made here;
   * none (the default) when the setup is planned as if nothing held it
   */
  keepOut?: Box3[];
}

export interface SetupPartsInput {
  /** the stock box in workpiece coordinates */
  stock: Box3;
  /** the library's end mills: whether a deep through feature gets a setup from each end */
  endMills: readonly Cutter[];
  machine: MachineTravel;
  /**
   * how far above the stock's bottom the first setup's jaws keep tools away (grip + keep-out,
   * mm); 0 or absent when nothing holds the stock. When it reaches into the part, the part is
   * turned over to machine that band: the setup opposite the first one held (-Z after +Z), as
   * for stock below the part.
   */
  heldBandMm?: number;
  /**
   * whether the workholding grips the blank in a setup along `direction` (its stock box in the
   * setup's frame): the first setup that fits the machine and is held is the one whose band the
   * turned-over setup machines; absent, the first that fits
   */
  gripsBlank?: (direction: Vec3, stock: Box3) => boolean;
}

export interface SetupsThatFit {
  setups: SetupPart[];
  /**
   * setups left out because the stock exceeds the travel in them, in the setup plan's order;
   * their features and faces are what they would have made that no setup here makes
   */
  leftOut: SetupLeftOut[];
}

/** Every setup's part that fits the machine, features shared out as the header says. */
export function setupParts(part: PlannedPart, input: SetupPartsInput): SetupsThatFit {
  const { stock, machine } = input;
  const taken = new Set<number>();
  const triangleFaces = triangleFaceIds(part.vertexFaces, part.soup.indices);
  const leftOut: SetupLeftOut[] = part.setups.left_out.map((setup) => exceedsTravel(setup, setup.reason));
  const ordered = orderedSetups(part, input).filter((setup) => {
    const excess = setupTravelExcess(machine, setup.direction, stock);
    if (excess !== null) leftOut.push(exceedsTravel(setup, excess.message));
    return excess === null;
  });
  const alongAxes = new Set(ordered.filter((setup) => isAxis(setup.direction)).flatMap((setup) => setup.reached));
  const split = new Set(part.setups.split_faces);
  const focus = (setup: Setup): number[] | null =>
    isAxis(setup.direction)
      ? null
      : [...setup.reached, ...setup.faces.filter((face) => split.has(face))].filter((face) => !alongAxes.has(face));
  const troughsTaken = new Set<number>();
  // a hole's faces (countersinks, a drill point's cone) are the hole making's
  const holeFaces = part.recognition.features.flatMap((f) => (f.hole === undefined ? [] : f.faces));
  const setups = ordered.map((setup) => {
    const frame = setupFrame(setup.direction, stock);
    const soup = soupToFrame(frame, part.soup);
    const troughs = setupTroughs({ frame, soup, triangleFaces }, part.analysis.faces, troughsTaken);
    for (const trough of troughs) troughsTaken.add(trough.face);
    const surfaces = surfaceFaces(
      { soup, triangleFaces, faces: setup.faces },
      part.analysis.faces,
      new Set([...troughsTaken, ...holeFaces]),
    );
    const features: Feature[] = [];
    const holes: SetupHole[] = [];
    for (const id of setup.features) {
      const feature = part.recognition.features[id];
      if (feature === undefined || taken.has(id)) continue;
      if (feature.hole !== undefined) {
        const hole = holeInSetup(feature, frame);
        if (!hole.ok) continue;
        holes.push(hole.hole);
      }
      taken.add(id);
      features.push(feature);
    }
    return {
      index: setup.index,
      name: setup.name,
      direction: setup.direction,
      frame,
      stock: boxToFrame(frame, stock),
      soup,
      triangleFaces,
      features,
      holes,
      focus: focus(setup),
      faces: setup.faces,
      addedFor: setup.addedFor,
      troughs,
      surfaces,
    };
  });
  // a through hole counterbored at both ends: no setup reaches all of it, each end makes its half
  for (const feature of part.recognition.features) {
    if (taken.has(feature.id)) continue;
    const halves = setups.flatMap((setup) => {
      const hole = halfFromItsEnd(feature, setup.frame);
      return hole === null ? [] : [{ setup, hole }];
    });
    // one setup per end: the first along each direction
    const ends = halves.filter(
      (half, i) => halves.findIndex((other) => dot(other.setup.direction, half.setup.direction) > AXIS) === i,
    );
    if (ends.length !== 2) continue;
    for (const { setup, hole } of ends) {
      setup.features.push(feature);
      setup.holes.push(hole);
    }
    taken.add(feature.id);
  }
  // what the setups that fit took over is theirs: a left-out setup keeps what is lost with it
  const unreachable = new Set(part.setups.unreachable_faces.map((face) => face.face));
  const lost = leftOut.map((setup) => ({
    ...setup,
    features: setup.features.filter((id) => !taken.has(id)),
    faces: setup.faces.filter((id) => unreachable.has(id)),
  }));
  return { setups, leftOut: lost };
}

/** features: every feature the setup reaches whole; faces: those it was the first setup to reach */
function exceedsTravel(setup: Setup, why: string): SetupLeftOut {
  return {
    name: setup.name,
    direction: setup.direction,
    reason: "exceeds_travel",
    message: `setup ${setup.name}: ${why}`,
    features: setup.features,
    faces: setup.faces,
  };
}

/** Holes no setup makes (recognition found no direction reaching all of one): the plan reports them. */
export function holesNoSetupMakes(part: PlannedPart, setups: readonly SetupPart[]): Feature[] {
  const made = new Set(setups.flatMap((setup) => setup.holes.map((hole) => hole.feature_id)));
  return part.recognition.features.filter((feature) => feature.hole !== undefined && !made.has(feature.id));
}

const AXIS = 1 - 1e-9;
/**
 * Stock beyond the part's box by less than this is the box's own tolerance (OCCT widens a box by
 * its shapes' tolerances), not an allowance a setup is added for.
 */
export const ALLOWANCE_MIN_MM = 0.05;
/**
 * passages narrower than this get no second setup: only the smallest tools fit, and barely reach
 * in (a long-neck 1 mm end mill reaches 12 mm: partC's 1.73 mm hexagonal passage, 4.1 mm from
 * the part's -X side to the pocket it crosses, is milled from -X)
 */
const OTHER_END_MIN_WIDTH_MM = 1.5;
/** through features deeper than this many times their width are milled from both ends */
const DEEP_RATIO = 3;

/** The setup plan's setups and the ones added to it (with what each is for), in shop order. */
function orderedSetups(part: PlannedPart, input: SetupPartsInput): (Setup & { addedFor: string | null })[] {
  const { stock, endMills, machine } = input;
  const setups = part.setups.setups.map((setup) => ({ ...setup, addedFor: null as string | null }));
  const add = (name: string, direction: Vec3, addedFor: string) =>
    setups.push({ index: setups.length, name, direction, faces: [], reached: [], features: [], addedFor });
  const top = part.analysis.bbox?.max[2] ?? stock.max[2];
  const bottom = part.analysis.bbox?.min[2] ?? stock.min[2];
  if (!setups.some((s) => s.direction[2] > AXIS) && stock.max[2] > top + ALLOWANCE_MIN_MM)
    add("+Z", [0, 0, 1], "the stock above the part");
  if (!setups.some((s) => s.direction[2] < -AXIS) && stock.min[2] < bottom - ALLOWANCE_MIN_MM)
    add("-Z", [0, 0, -1], "the stock below the part");
  const rank = (s: Setup) => (s.direction[2] > AXIS ? 0 : s.direction[2] < -AXIS ? 1 : 2);
  const inOrder = () =>
    setups
      .map((setup, order) => ({ setup, order }))
      .sort((a, b) => rank(a.setup) - rank(b.setup) || a.order - b.order)
      .map(({ setup }) => setup);
  const band = input.heldBandMm ?? 0;
  // the first setup held grips the blank's lowest band in its own frame; if that reaches into
  // the part, the setup opposite it (turned over) machines it
  const first =
    band > 0
      ? inOrder().find(
          (s) =>
            setupTravelExcess(machine, s.direction, stock) === null &&
            (input.gripsBlank?.(s.direction, boxToFrame(setupFrame(s.direction, stock), stock)) ?? true),
        )
      : undefined;
  if (first !== undefined) {
    const opposite = scale(first.direction, -1);
    const partBox = part.analysis.bbox ?? stock;
    // how far the stock reaches beyond the part on the side the first setup's jaws hold
    const allowance = projectAlong(boxCorners(stock), opposite).max - projectAlong(boxCorners(partBox), opposite).max;
    if (!setups.some((s) => dot(s.direction, opposite) > AXIS) && band > allowance)
      add(directionName(opposite, 1 - AXIS), opposite, "the band the first setup's jaws held");
  }
  for (const { direction, feature } of otherEnds(part.recognition.features, endMills)) {
    if (setups.some((s) => dot(s.direction, direction) > AXIS)) continue;
    add(directionName(direction, 1 - AXIS), direction, `the far end of feature ${feature}`);
  }
  return inOrder().map((setup, index) => ({ ...setup, index }));
}

/**
 * The axis directions of milled through features (passages, through slots; drilled holes are
 * not: a drill goes through from one end) at least OTHER_END_MIN_WIDTH_MM wide and deeper than
 * DEEP_RATIO times their width: each end's direction, so the setup plan gets the one it lacks and
 * the far part is machined from its own side. An end mill that fits reaches about that deep
 * before its holder, deflection or chip evacuation stop it, and the library's nominal reach
 * promises more than the part allows: partC's 10 mm hexagonal passage runs 44.6 mm through the
 * part, broken by a step, and its 8 mm end mill, nominally reaching 43 mm, got 32 mm in from one
 * side. Planned from both ends, partC's removed share went from 95.8 % to 97.4 %.
 */
function otherEnds(features: readonly Feature[], endMills: readonly Cutter[]): { direction: Vec3; feature: number }[] {
  const ends: { direction: Vec3; feature: number }[] = [];
  for (const feature of features) {
    const width = feature.min_width_mm;
    const depth = feature.depth_mm;
    if (
      feature.hole !== undefined ||
      feature.access_direction === null ||
      feature.other_access_directions.length === 0 ||
      width === null ||
      depth === null
    )
      continue;
    if (width < OTHER_END_MIN_WIDTH_MM || depth <= DEEP_RATIO * width) continue;
    // only when some end mill fits in
    if (!endMills.some((c) => c.diameter <= width + 1e-9)) continue;
    for (const direction of [feature.access_direction, ...feature.other_access_directions]) {
      if (!isAxis(direction) || ends.some((end) => dot(end.direction, direction) > AXIS)) continue;
      ends.push({ direction, feature: feature.id });
    }
  }
  return ends;
}

const isAxis = (d: Vec3): boolean => isAxisDirection(d, 1 - AXIS);
