/**
 * The new project's second step, and the project page's for a part not planned yet: stock
 * offsets around the part (its size shown as they change when the upload's bounding box is
 * known), and "Plan": the stock saved, the automated CAM planning started, its task polled
 * (GET /tasks/{id}) until it ends, with the progress shown. A finished plan points on to the
 * quote, and a plan that says the stock is too small to grip says so here, where it can be
 * planned again with more stock.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { type ProjectPart, readProjectPart } from "../api/app-routes.ts";
import { page } from "../api/base.ts";
import {
  getTask,
  type Offsets,
  planResult,
  type Project,
  setStock,
  startPlanning,
  TERMINAL,
  type Task,
} from "../api/projects.ts";
import { FormError } from "../components/errors.tsx";
import { fill, useI18n } from "../i18n/index.ts";
import { formatDuration, useProjectsText } from "../i18n/projects.ts";

export interface Uploaded {
  fileName: string;
  bbox: { min: number[]; max: number[]; size: number[] };
  face_count: number;
  warnings: { code: string; message: string }[];
}

const AXES = ["x", "y", "z"] as const;
/**
 * 8 mm below the part: a vise's usual 5 mm grip, the 1.5 mm every tool keeps from the jaws and
 * 1.5 mm to spare, so the first plan of a part holds without a "stock too small to grip" warning
 */
const DEFAULT_OFFSETS: Offsets = { minus_x: 2, plus_x: 2, minus_y: 2, plus_y: 2, minus_z: 8, plus_z: 2 };
const POLL_MS = 1000;

/** the stock's size: the part's bounding box plus the offsets on both sides of each axis */
export function stockSize(size: number[], offsets: Offsets): [number, number, number] {
  return [
    (size[0] ?? 0) + offsets.minus_x + offsets.plus_x,
    (size[1] ?? 0) + offsets.minus_y + offsets.plus_y,
    (size[2] ?? 0) + offsets.minus_z + offsets.plus_z,
  ];
}

export function PlanStep({
  project,
  uploaded,
  running,
  onPlanned,
  again = false,
}: {
  project: Project;
  /** the upload's answer; without it (a part uploaded earlier) the part's size and stock are read from the app route */
  uploaded?: Uploaded;
  /** a planning already queued or running: followed, not started again */
  running?: Task;
  /** on the project page: the page reloads itself instead of linking to itself */
  onPlanned?: () => void;
  /** a planned project's page: this step plans it once more, inside a fold of its own */
  again?: boolean;
}) {
  const text = useProjectsText();
  const { formatNumber } = useI18n();
  const [offsets, setOffsets] = useState<Offsets>(DEFAULT_OFFSETS);
  // a part uploaded earlier: its size and the stock it was given, so planning again starts from them
  const [earlier, setEarlier] = useState<ProjectPart | null>(null);
  useEffect(() => {
    if (uploaded) return;
    let live = true;
    readProjectPart(project.id)
      .then((known) => {
        if (!live) return;
        setEarlier(known);
        if (known.stock_offsets) setOffsets(known.stock_offsets);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [project.id, uploaded === undefined]);
  const [task, setTask] = useState<Task | null>(null);
  const [queuePosition, setQueuePosition] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const mm = (value: number) => formatNumber(value, { maximumFractionDigits: 1 });
  const partSize = uploaded?.bbox.size ?? earlier?.part?.bbox.size;
  const size = partSize ? stockSize(partSize, offsets) : null;

  const follow = (taskId: string) => {
    timer.current = window.setTimeout(async () => {
      try {
        const now = await getTask(taskId);
        setTask(now);
        if (!TERMINAL.has(now.status)) follow(taskId);
        else {
          setBusy(false);
          if (now.status === "success") onPlanned?.();
        }
      } catch (caught) {
        setError(caught);
        setBusy(false);
      }
    }, POLL_MS);
  };

  useEffect(() => {
    if (!running) return;
    setTask(running);
    setBusy(true);
    follow(running.task_id);
  }, [running?.task_id]);

  const plan = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setTask(null);
    try {
      await setStock(project.id, offsets);
      const started = await startPlanning(project.id);
      setQueuePosition(started.queued ? (started.queue_position ?? null) : null);
      follow(started.task_id);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  const result = task ? planResult(task) : null;
  // the one plan warning the estimator can act on here: more stock, then plan again
  const tooSmall = result?.warnings.filter((warning) => warning.code === "stock_allowance_needed") ?? [];
  const projectPage = page(`/projects/${encodeURIComponent(project.id)}`);
  return (
    <form
      class={again ? undefined : "card"}
      noValidate
      onSubmit={(event) => void plan(event)}
      aria-labelledby="stock-title"
    >
      {uploaded ? (
        <>
          <p role="status">
            {fill(text.create.uploaded, {
              file: uploaded.fileName,
              x: mm(uploaded.bbox.size[0] ?? 0),
              y: mm(uploaded.bbox.size[1] ?? 0),
              z: mm(uploaded.bbox.size[2] ?? 0),
              faces: formatNumber(uploaded.face_count),
            })}
          </p>
          {uploaded.warnings.map((warning, index) => (
            <p key={`${warning.code}-${index}`} class="warning">
              {warning.message}
            </p>
          ))}
        </>
      ) : (
        <p>{again ? text.create.planAgainLead : text.create.planLead}</p>
      )}
      <h2 id="stock-title">{text.create.stockTitle}</h2>
      <p class="muted">{text.create.stockLead}</p>
      <fieldset class="offsets" disabled={busy}>
        {AXES.flatMap((axis) =>
          (["minus", "plus"] as const).map((side) => {
            const key = `${side}_${axis}` as keyof Offsets;
            const label = `${side === "minus" ? "−" : "+"}${axis.toUpperCase()}`;
            return (
              <div class="field" key={key}>
                <label for={`offset-${key}`}>{label}</label>
                <input
                  id={`offset-${key}`}
                  type="number"
                  min={0}
                  step={0.5}
                  inputMode="decimal"
                  value={offsets[key]}
                  onInput={(event) => {
                    const value = event.currentTarget.valueAsNumber;
                    setOffsets({ ...offsets, [key]: Number.isFinite(value) ? value : 0 });
                  }}
                />
              </div>
            );
          }),
        )}
      </fieldset>
      {size ? (
        <p>
          {text.create.stockSize}:{" "}
          <strong data-testid="stock-size">
            {mm(size[0])} × {mm(size[1])} × {mm(size[2])} mm
          </strong>
        </p>
      ) : null}
      <FormError error={error} />
      <p>
        <button type="submit" class={task?.status === "success" ? undefined : "primary"} disabled={busy}>
          {again || task?.status === "success" ? text.create.planAgain : text.create.plan}
        </button>
      </p>
      {busy ? (
        <div class="progress-line">
          <progress value={task?.progress ?? 0} max={1} aria-label={text.create.plan} />
          <span role="status" data-testid="plan-progress">
            {task?.status === "queued" && queuePosition !== null
              ? fill(text.create.queued, { position: queuePosition })
              : fill(text.create.planning, { pct: formatNumber(Math.round((task?.progress ?? 0) * 100)) })}
          </span>
        </div>
      ) : null}
      {task?.status === "success" ? (
        <div class="notice" role="status">
          <p>
            {fill(text.create.planned, {
              setups: result?.setups.length ?? 0,
              time: formatDuration(result?.machining_time_s ?? 0),
            })}
          </p>
          {tooSmall.map((warning, index) => (
            <p key={`${warning.code}-${index}`} class="warning">
              {fill(text.create.stockTooSmall, { message: warning.message })}
            </p>
          ))}
          <p class="actions start">
            <a class="button primary" href={`${projectPage}/quote`}>
              {text.create.openQuote}
            </a>
            {onPlanned ? null : (
              <a class="button" href={projectPage}>
                {text.create.openProject}
              </a>
            )}
          </p>
        </div>
      ) : null}
      {task && (task.status === "failed" || task.status === "cancelled") ? (
        <p class="form-error" role="alert">
          {fill(text.create.planFailed, { message: task.error?.message ?? text.taskStatus[task.status] })}
        </p>
      ) : null}
    </form>
  );
}
