/**
 * The "Features" toggle: when on, the part's faces take their recognised feature's colour (a
 * legend names the families), and pointing at the part names the feature under the pointer with
 * its parameters. Whether on or not, the chosen operation's features are highlighted. The
 * features are fetched once, when first needed.
 */
import type { RefObject } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { ViewerFeature } from "../../../contracts/viewer.ts";
import { readFeatures } from "../api/viewer-data.ts";
import { errorMessage } from "../components/errors.tsx";
import { fill, useI18n } from "../i18n/index.ts";
import { familiesPresent, familyCss, featuresByFace, HIGHLIGHT, partColours } from "./feature-colours.ts";
import type { SetupView } from "./setup-view.ts";
import { useViewerText, type ViewerText } from "./viewer-text.ts";

export interface FeatureOverlayProps {
  projectId: string;
  /** the toggle, kept by the viewer (the toolpaths make way while an overlay shows) */
  on: boolean;
  setOn: (on: boolean) => void;
  view: RefObject<SetupView | null>;
  canvas: RefObject<HTMLCanvasElement | null>;
  /** ids of the chosen operations' features */
  highlighted: readonly number[];
  /** changes each time the view shows a setup anew */
  shown: number;
}

/** what the tooltip says of a feature */
export function describeFeature(feature: ViewerFeature, text: ViewerText, mm: (value: number) => string): string {
  const parts = [feature.class.replaceAll("_", " ")];
  const hole = feature.hole;
  if (hole) {
    parts.push(fill(text.hole, { diameter: mm(hole.diameter_mm), depth: mm(hole.depth_mm) }));
    if (hole.through) parts.push(text.through);
    if (hole.counterbore_diameter_mm !== null)
      parts.push(fill(text.counterbore, { mm: mm(hole.counterbore_diameter_mm) }));
    if (hole.countersink_diameter_mm !== null)
      parts.push(fill(text.countersink, { mm: mm(hole.countersink_diameter_mm) }));
  } else if (feature.depth_mm !== null) parts.push(fill(text.depth, { mm: mm(feature.depth_mm) }));
  if (feature.width_mm !== null) parts.push(fill(text.width, { mm: mm(feature.width_mm) }));
  if (feature.corner_radius_mm !== null) parts.push(fill(text.corner, { mm: mm(feature.corner_radius_mm) }));
  return parts.join(", ");
}

export function FeatureOverlay({ projectId, on, setOn, view, canvas, highlighted, shown }: FeatureOverlayProps) {
  const text = useViewerText();
  const { t, formatNumber } = useI18n();
  const [features, setFeatures] = useState<ViewerFeature[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [hover, setHover] = useState<ViewerFeature | null | undefined>(undefined);
  const needed = on || highlighted.length > 0;
  const highlightKey = highlighted.join(",");

  useEffect(() => {
    if (!needed || features || error) return;
    let live = true;
    readFeatures(projectId)
      .then((answer) => live && setFeatures(answer.features))
      .catch((reason: unknown) => live && setError(reason));
    return () => {
      live = false;
    };
  }, [needed, features, error, projectId]);

  const byFace = useMemo(() => (features ? featuresByFace(features) : null), [features]);

  useEffect(() => {
    const current = view.current;
    const faceIds = current?.partFaceIds();
    if (!current || !faceIds) return;
    const plain = !byFace || (!on && highlightKey === "");
    if (plain) current.colourPart(null);
    else {
      const ids = new Set(highlightKey === "" ? [] : highlightKey.split(",").map(Number));
      current.colourPart(partColours({ faceIds, byFace, classes: on, highlighted: ids }));
    }
    // what the part shows, for the tests: set once its colours are in the scene
    canvas.current?.setAttribute("data-part-colours", plain ? "plain" : on ? "features" : "highlight");
  }, [view, canvas, byFace, on, highlightKey, shown]);

  // the feature under the pointer, looked for once a frame and not while the camera is dragged
  useEffect(() => {
    const element = canvas.current;
    if (!on || !byFace || !element) return;
    let asked: PointerEvent | null = null;
    const look = () => {
      const event = asked;
      asked = null;
      if (!event) return;
      const face = view.current?.faceAt(event.clientX, event.clientY) ?? null;
      setHover(face === null ? null : (byFace.get(face) ?? null));
    };
    const move = (event: PointerEvent) => {
      if (event.buttons !== 0) return;
      if (asked === null) requestAnimationFrame(look);
      asked = event;
    };
    const leave = () => setHover(undefined);
    element.addEventListener("pointermove", move);
    element.addEventListener("pointerleave", leave);
    return () => {
      element.removeEventListener("pointermove", move);
      element.removeEventListener("pointerleave", leave);
    };
  }, [canvas, view, on, byFace]);

  const mm = (value: number) => formatNumber(value, { maximumFractionDigits: 2 });
  const families = features ? familiesPresent(features) : [];
  return (
    <div class="overlay" data-overlay="features">
      <label class="overlay-toggle">
        <input type="checkbox" checked={on} onChange={(event) => setOn((event.target as HTMLInputElement).checked)} />
        {text.features}
      </label>
      {error && needed ? (
        <p class="form-error small" role="alert">
          {text.featuresFailed} {errorMessage(error, t)}
        </p>
      ) : null}
      {on && !error ? (
        <div class="overlay-body">
          {features === null ? <p class="small loading">{text.featuresLoading}</p> : null}
          <ul class="overlay-legend small">
            {families.map((family) => (
              <li key={family}>
                <span class="swatch" style={{ background: familyCss(family) }} />
                {text.families[family] ?? family}
              </li>
            ))}
            {highlighted.length > 0 ? (
              <li>
                <span class="swatch" style={{ background: `rgb(${HIGHLIGHT.map((c) => c * 255).join(" ")})` }} />
                {text.featureHighlight}
              </li>
            ) : null}
          </ul>
          <p class="small feature-hover" aria-live="polite">
            {hover === undefined
              ? text.featuresHint
              : hover === null
                ? text.featuresNone
                : describeFeature(hover, text, mm)}
          </p>
        </div>
      ) : null}
    </div>
  );
}
