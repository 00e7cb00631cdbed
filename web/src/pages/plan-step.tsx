/**
 * The new project's second step: stock offsets around the uploaded part, its size shown as
 * they change, and "Plan": the stock saved, the automated CAM planning started, its task
 * polled (GET /tasks/{id}) until it ends, with the progress shown.
 */
import { useEffect, useRef, useState } from "preact/hooks";
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
const DEFAULT_OFFSETS: Offsets = { minus_x: 2, plus_x: 2, minus_y: 2, plus_y: 2, minus_z: 2, plus_z: 2 };
const POLL_MS = 1000;

/** the stock's size: the part's bounding box plus the offsets on both sides of each axis */
export function stockSize(size: number[], offsets: Offsets): [number, number, number] {
  return [
    (size[0] ?? 0) + offsets.minus_x + offsets.plus_x,
    (size[1] ?? 0) + offsets.minus_y + offsets.plus_y,
    (size[2] ?? 0) + offsets.minus_z + offsets.plus_z,
  ];
}

export function PlanStep({ project, uploaded }: { project: Project; uploaded: Uploaded }) {
  const text = useProjectsText();
  const { formatNumber } = useI18n();
  const [offsets, setOffsets] = useState<Offsets>(DEFAULT_OFFSETS);
  const [task, setTask] = useState<Task | null>(null);
  const [queuePosition, setQueuePosition] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const mm = (value: number) => formatNumber(value, { maximumFractionDigits: 1 });
  const size = stockSize(uploaded.bbox.size, offsets);

  const follow = (taskId: string) => {
    timer.current = window.setTimeout(async () => {
      try {
        const now = await getTask(taskId);
        setTask(now);
        if (TERMINAL.has(now.status)) setBusy(false);
        else follow(taskId);
      } catch (caught) {
        setError(caught);
        setBusy(false);
      }
    }, POLL_MS);
  };

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
  const projectPage = page(`/projects/${encodeURIComponent(project.id)}`);
  return (
    <form class="card" noValidate onSubmit={(event) => void plan(event)} aria-labelledby="stock-title">
      <p role="status">
        {fill(text.create.uploaded, {
          file: uploaded.fileName,
          x: mm(uploaded.bbox.size[0] ?? 0),
          y: mm(uploaded.bbox.size[1] ?? 0),
          z: mm(uploaded.bbox.size[2] ?? 0),
          faces: formatNumber(uploaded.face_count),
        })}
      </p>
      {uploaded.warnings.map((warning) => (
        <p key={warning.code} class="warning">
          {warning.message}
        </p>
      ))}
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
      <p>
        {text.create.stockSize}:{" "}
        <strong data-testid="stock-size">
          {mm(size[0])} × {mm(size[1])} × {mm(size[2])} mm
        </strong>
      </p>
      <FormError error={error} />
      <button type="submit" class="primary" disabled={busy || task?.status === "success"}>
        {text.create.plan}
      </button>
      {task || busy ? (
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
          <p class="actions start">
            <a href={projectPage}>{text.create.openProject}</a>{" "}
            <a href={`${projectPage}/quote`}>{text.create.openQuote}</a>
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
