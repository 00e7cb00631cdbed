/**
 * The project page's 3D view: the chosen setup as the machine sees it (part, stock,
 * workholding, WCS, toolpaths) beside the job's tree, and a slider that walks the chosen
 * operation's moves with the tool drawn there and the program's line shown. three.js and the
 * scene (setup-view.ts) load only when this section mounts, so other pages do not carry them.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { SetupToolpaths } from "../api/toolpath-buffer.ts";
import type { ViewerScene } from "../../../contracts/viewer.ts";
import { readSetupToolpaths, readViewerScene } from "../api/viewer.ts";
import { FormError } from "../components/errors.tsx";
import { fill, useI18n } from "../i18n/index.ts";
import { DesignFeedbackOverlay } from "./design-feedback-overlay.tsx";
import { FeatureOverlay } from "./feature-overlay.tsx";
import { OperationTree, operationName, type Selection } from "./operation-tree.tsx";
import type { SetupView, StandardView } from "./setup-view.ts";
import { StockOverlay } from "./stock-overlay.tsx";
import { useViewerText } from "./viewer-text.ts";
import "./viewer.css";

type SceneModule = typeof import("./setup-view.ts");
type PartGeometry = Awaited<ReturnType<SceneModule["loadPartGeometry"]>>;

interface Loaded {
  scene: ViewerScene;
  module: SceneModule;
  part: PartGeometry;
}

const VIEWS: StandardView[] = ["top", "front", "right", "iso"];

/** the operations a selection shows, by index in its setup; null: all */
function shownOperations(scene: ViewerScene, selection: Selection): Set<number> | null {
  if (selection.kind === "setup") return null;
  if (selection.kind === "operation") return new Set([selection.operation]);
  const setup = scene.setups[selection.setup];
  const block = setup?.blocks[selection.block];
  return new Set((block?.operations ?? []).map((operation) => setup?.operation_ids.indexOf(operation.id) ?? -1));
}

export function ProjectViewer({ projectId }: { projectId: string }) {
  const text = useViewerText();
  const { formatNumber } = useI18n();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [noWebgl, setNoWebgl] = useState(false);
  const [selection, setSelection] = useState<Selection>({ kind: "setup", setup: 0 });
  const [paths, setPaths] = useState<{ setup: number; toolpaths: SetupToolpaths } | null>(null);
  const [point, setPoint] = useState(0);
  // counts the setups the view has shown, so the overlays draw again into a new scene
  const [shown, setShown] = useState(0);
  const [stockOn, setStockOn] = useState(false);
  const [featuresOn, setFeaturesOn] = useState(false);
  const canvas = useRef<HTMLCanvasElement>(null);
  const view = useRef<SetupView | null>(null);
  // the stock replaces the part the features colour: one overlay at a time, or Features would
  // colour a hidden part and the picture would not change
  const showStock = (on: boolean) => {
    setStockOn(on);
    if (on) setFeaturesOn(false);
  };
  const showFeatures = (on: boolean) => {
    setFeaturesOn(on);
    if (on) setStockOn(false);
  };

  useEffect(() => {
    let live = true;
    (async () => {
      const [scene, module] = await Promise.all([readViewerScene(projectId), import("./setup-view.ts")]);
      const part = scene.part ? await module.loadPartGeometry(scene.part.mesh_url) : null;
      if (live) setLoaded({ scene, module, part });
    })().catch((reason: unknown) => live && setError(reason));
    return () => {
      live = false;
    };
  }, [projectId]);

  // the renderer, once the module and the canvas are there
  useEffect(() => {
    if (!loaded || !canvas.current || view.current) return;
    try {
      view.current = new loaded.module.SetupView(canvas.current);
    } catch {
      setNoWebgl(true);
    }
    return () => {
      view.current?.dispose();
      view.current = null;
    };
  }, [loaded]);

  const setupIndex = selection.setup;
  useEffect(() => {
    if (!loaded) return;
    let live = true;
    readSetupToolpaths(projectId, setupIndex)
      .then((toolpaths) => live && setPaths({ setup: setupIndex, toolpaths }))
      .catch((reason: unknown) => live && setError(reason));
    return () => {
      live = false;
    };
  }, [loaded, projectId, setupIndex]);

  const setup = loaded?.scene.setups[setupIndex];
  const kinds = useMemo(() => {
    const byId = new Map(
      setup?.blocks.flatMap((block) => block.operations).map((operation) => [operation.id, operation]),
    );
    return (setup?.operation_ids ?? []).map((id) => byId.get(id)?.kind ?? "");
  }, [setup]);

  // a new setup's scene
  useEffect(() => {
    if (!loaded || !setup || !paths || paths.setup !== setupIndex || !view.current) return;
    view.current.show(setup, paths.toolpaths, loaded.part, kinds);
    setShown((n) => n + 1);
    // what is drawn, for the benchmark and the tests: set once the scene holds it
    const moves = setup.blocks.flatMap((block) => block.operations).reduce((sum, op) => sum + op.move_count, 0);
    const points = paths.toolpaths.operations.reduce((sum, path) => sum + path.classes.length, 0);
    canvas.current?.setAttribute("data-moves", String(moves));
    canvas.current?.setAttribute("data-points", String(points));
    canvas.current?.setAttribute("data-setup", String(setupIndex));
  }, [loaded, setup, paths, setupIndex, kinds]);

  const operation =
    selection.kind === "operation" && setup
      ? setup.blocks
          .flatMap((block) => block.operations)
          .find((candidate) => candidate.id === setup.operation_ids[selection.operation])
      : undefined;
  const path =
    selection.kind === "operation" && paths?.setup === setupIndex
      ? paths.toolpaths.operations[selection.operation]
      : undefined;
  const count = path?.classes.length ?? 0;
  const at = Math.min(point, Math.max(0, count - 1));

  // what is shown, and the tool at the slider's point
  useEffect(() => {
    if (!loaded || !view.current || paths?.setup !== setupIndex) return;
    // over the stock or the features, the setup's toolpaths would hide them: only a chosen item's show
    const overlaid = (stockOn || featuresOn) && selection.kind === "setup";
    view.current.only(overlaid ? new Set() : shownOperations(loaded.scene, selection));
    if (operation && path && count > 0) {
      const p = path.positions;
      view.current.toolAt(operation.tool, [p[3 * at] as number, p[3 * at + 1] as number, p[3 * at + 2] as number]);
    } else view.current.toolAt(null, null);
  }, [loaded, selection, paths, setupIndex, operation, path, at, count, stockOn, featuresOn]);

  const chosen = loaded ? shownOperations(loaded.scene, selection) : null;
  const chosenOperations = setup && chosen ? setup.operation_ids.filter((_, k) => chosen.has(k)) : [];
  const highlighted = setup
    ? setup.blocks
        .flatMap((block) => block.operations)
        .filter((candidate) => chosenOperations.includes(candidate.id))
        .flatMap((candidate) => candidate.features)
    : [];
  // the stock after the last chosen operation; after the setup's last when the setup is chosen
  const stockAfter = chosen && chosen.size > 0 ? Math.max(...chosen) : undefined;

  if (error) return <FormError error={error} />;
  const number = (value: number) => formatNumber(value, { maximumFractionDigits: 2 });
  const lineIndex = path ? (path.lines[at] ?? 0) : null;
  const line = lineIndex !== null && paths ? (paths.toolpaths.program[lineIndex] ?? "") : null;
  const ready = loaded !== null && paths?.setup === setupIndex;

  return (
    <section class="card viewer" aria-labelledby="viewer-title" data-ready={ready ? "true" : "false"}>
      <h2 id="viewer-title">{text.title}</h2>
      {noWebgl ? <p class="muted">{text.noWebgl}</p> : null}
      <div class="viewer-body">
        <div class="viewer-stage">
          <div class="viewer-tools" role="toolbar" aria-label={text.views}>
            {VIEWS.map((name) => (
              <button type="button" key={name} onClick={() => view.current?.view(name)} disabled={!ready}>
                {text[name]}
              </button>
            ))}
            <button type="button" onClick={() => view.current?.fit()} disabled={!ready}>
              {text.fit}
            </button>
            <button type="button" onClick={() => setSelection({ kind: "setup", setup: setupIndex })} disabled={!ready}>
              {text.showAll}
            </button>
          </div>
          <canvas
            ref={canvas}
            class="viewer-canvas"
            role="img"
            aria-label={fill(text.canvas, { setup: setup?.name ?? "" })}
          />
          {loaded ? null : <p class="loading viewer-loading">{text.loading}</p>}
          <p class="muted small">{text.legend}</p>
          {loaded && setup ? (
            <div class="viewer-overlays">
              <StockOverlay
                projectId={projectId}
                on={stockOn}
                setOn={showStock}
                view={view}
                setup={setup}
                after={stockAfter}
                afterName={fill(text.stockAfter, {
                  name: operation
                    ? operationName(text, operation, number)
                    : selection.kind === "block"
                      ? (setup.blocks[selection.block]?.name ?? "")
                      : setup.name,
                })}
                shown={shown}
              />
              <FeatureOverlay
                projectId={projectId}
                on={featuresOn}
                setOn={showFeatures}
                view={view}
                canvas={canvas}
                highlighted={highlighted}
                shown={shown}
              />
              <DesignFeedbackOverlay projectId={projectId} view={view} canvas={canvas} shown={shown} />
            </div>
          ) : null}
        </div>
        <div class="viewer-side">
          {loaded ? (
            <OperationTree
              setups={loaded.scene.setups}
              selected={selection}
              onSelect={(next) => {
                setSelection(next);
                setPoint(0);
              }}
            />
          ) : null}
          <div class="viewer-player">
            <label for="viewer-slider">
              {operation ? fill(text.player, { operation: operationName(text, operation, number) }) : text.playerNone}
            </label>
            <input
              id="viewer-slider"
              type="range"
              min={0}
              max={Math.max(0, count - 1)}
              value={at}
              disabled={!operation || count === 0}
              onInput={(event) => setPoint(Number((event.target as HTMLInputElement).value))}
            />
            {operation && count > 0 ? (
              <p class="small" aria-live="polite">
                {fill(text.move, { at: formatNumber(at + 1), count: formatNumber(count) })}
                {" · "}
                {fill(text.line, { line: formatNumber((lineIndex ?? 0) + 1) })}
              </p>
            ) : null}
            {line !== null ? (
              <pre class="gcode-line" data-line={lineIndex ?? 0}>
                <code>{line}</code>
              </pre>
            ) : null}
          </div>
        </div>
      </div>
    </section>
  );
}
