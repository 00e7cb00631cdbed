/**
 * The "Simulated stock" toggle: when on, the stock as the simulation left it after the chosen
 * operation (after the setup's last when a setup is chosen) replaces the part in the view,
 * coloured against it, with a legend and the material left. Fetched when asked, one request at
 * a time: a choice made while one runs is fetched when it ends, so the newest choice wins.
 */
import type { RefObject } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { ViewerSetup } from "../../../contracts/viewer.ts";
import { readStock } from "../api/viewer-data.ts";
import { errorMessage } from "../components/errors.tsx";
import { fill, useI18n } from "../i18n/index.ts";
import type { SetupView } from "./setup-view.ts";
import { STOCK_COLOURS, STOCK_SIDE, type StockMesh, stockMesh } from "./stock-mesh.ts";
import { useViewerText } from "./viewer-text.ts";

export interface StockOverlayProps {
  projectId: string;
  /** the toggle, kept by the viewer (the toolpaths make way while an overlay shows) */
  on: boolean;
  setOn: (on: boolean) => void;
  view: RefObject<SetupView | null>;
  setup: ViewerSetup;
  /** the operation (index in the setup) the stock is after; undefined: the setup's last */
  after: number | undefined;
  /** what "after" names, for the legend */
  afterName: string;
  /** changes each time the view shows a setup anew (its stock is then gone) */
  shown: number;
}

interface Fetched {
  key: string;
  mesh: StockMesh | null;
  materialLeft: number;
  tolerance: number;
  error: unknown;
}

const css = (c: readonly number[]) => `rgb(${c.map((v) => Math.round(v * 255)).join(" ")})`;

export function StockOverlay({ projectId, on, setOn, view, setup, after, afterName, shown }: StockOverlayProps) {
  const text = useViewerText();
  const { t, formatNumber } = useI18n();
  const [fetched, setFetched] = useState<Fetched | null>(null);
  const [ended, setEnded] = useState(0);
  const running = useRef(false);
  const wanted = `${projectId}/${setup.index}/${after ?? "last"}`;

  useEffect(() => {
    if (!on || running.current || fetched?.key === wanted) return;
    running.current = true;
    const key = wanted;
    readStock(projectId, setup.index, after)
      .then((field) =>
        setFetched({
          key,
          mesh: stockMesh(field),
          materialLeft: field.material_left_mm3,
          tolerance: field.tolerance_mm,
          error: null,
        }),
      )
      .catch((error: unknown) => setFetched({ key, mesh: null, materialLeft: 0, tolerance: 0, error }))
      .finally(() => {
        running.current = false;
        setEnded((n) => n + 1);
      });
  }, [on, wanted, fetched, ended, projectId, setup.index, after]);

  const current = fetched?.key === wanted ? fetched : null;
  useEffect(() => {
    view.current?.setStock(on && current?.mesh ? current.mesh : null, setup);
  }, [view, on, current, setup, shown]);

  const mm = (value: number) => formatNumber(value, { maximumFractionDigits: 2 });
  const legend: [string, readonly number[]][] = current
    ? [
        [fill(text.stockLeft, { mm: mm(current.tolerance) }), STOCK_COLOURS[0] ?? []],
        [fill(text.stockWithin, { mm: mm(current.tolerance) }), STOCK_COLOURS[1] ?? []],
        [text.stockCut, STOCK_COLOURS[2] ?? []],
        [text.stockNoPart, STOCK_COLOURS[3] ?? []],
        [text.stockSide, STOCK_SIDE],
      ]
    : [];
  return (
    <div class="overlay" data-overlay="stock">
      <label class="overlay-toggle">
        <input type="checkbox" checked={on} onChange={(event) => setOn((event.target as HTMLInputElement).checked)} />
        {text.stock}
      </label>
      {on ? (
        <div class="overlay-body" aria-live="polite">
          {current === null ? <p class="small loading">{text.stockLoading}</p> : null}
          {current?.error ? (
            <p class="form-error small" role="alert">
              {text.stockFailed} {errorMessage(current.error, t)}
            </p>
          ) : null}
          {current?.mesh ? (
            <>
              <p class="small">{afterName}</p>
              <ul class="overlay-legend small">
                {legend.map(([label, colour]) => (
                  <li key={label}>
                    <span class="swatch" style={{ background: css(colour) }} />
                    {label}
                  </li>
                ))}
              </ul>
              <p class="small material-left" data-mm3={current.materialLeft}>
                {fill(text.materialLeft, { volume: formatNumber(current.materialLeft, { maximumFractionDigits: 0 }) })}
              </p>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
