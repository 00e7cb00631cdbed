/**
 * Project: what its latest planning made (the 3D view of its setups and toolpaths, setups with
 * their tools and times, completeness and its reasons, warnings), the downloads (G-code per setup, the job file, the setup sheet) and
 * the history of its tasks. A part not planned yet gets the plan step here, and a planning
 * still running is followed. Another user's or an unknown id shows only "not found".
 */
import { useEffect, useState } from "preact/hooks";
import { page } from "../api/base.ts";
import {
  getProject,
  listMachines,
  listMaterials,
  listProjectTasks,
  type PlanResult,
  planResult,
  type Project,
  projectUrl,
  TERMINAL,
  type Task,
} from "../api/projects.ts";
import { FormError } from "../components/errors.tsx";
import { usePageTitle } from "../components/page-title.ts";
import { fill, useI18n } from "../i18n/index.ts";
import { formatDuration, useProjectsText } from "../i18n/projects.ts";
import { LazyProjectViewer } from "../viewer/lazy-project-viewer.tsx";
import { PlanStep } from "./plan-step.tsx";
import { Downloads } from "./project-downloads.tsx";
import { isNotFound, ProjectNotFound } from "./project-not-found.tsx";
import "./projects.css";

const FEW_WARNINGS = 3;
const PLANNING_TASK = "automation.automated_cam_planning";

function Summary({ plan }: { plan: PlanResult }) {
  const text = useProjectsText();
  const { formatNumber } = useI18n();
  const completeness = plan.completeness;
  return (
    <section class="card" aria-labelledby="summary-title">
      <h2 id="summary-title">{text.project.summary}</h2>
      <p>
        {text.project.totalTime}: <strong>{formatDuration(plan.machining_time_s)}</strong>
      </p>
      {completeness ? (
        <div>
          <h3>
            {text.project.completeness}:{" "}
            <span class={`badge ${completeness.status === "complete" ? "on" : "off"}`}>
              {completeness.status === "complete" ? text.project.complete : text.project.incomplete}
            </span>
          </h3>
          <ul>
            {completeness.reasons.map((reason) => (
              <li key={reason.code}>{reason.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {plan.warnings.length > 0 ? (
        // a plan can carry dozens of warnings: folded, they do not push the setups off the page
        <details class="warnings" open={plan.warnings.length <= FEW_WARNINGS}>
          <summary>
            <h3>{fill(text.project.warningsCount, { count: formatNumber(plan.warnings.length) })}</h3>
          </summary>
          <ul>
            {plan.warnings.map((warning, index) => (
              <li key={`${warning.code}-${index}`}>{warning.message}</li>
            ))}
          </ul>
        </details>
      ) : null}
      <h3>{text.project.setups}</h3>
      {plan.setups.map((setup) => (
        <section key={setup.id} class="setup" aria-label={setup.name}>
          <h4>
            {setup.name} · {text.project.setupTime} {formatDuration(setup.machining_time_s)} ·{" "}
            {fill(text.project.operations, { count: setup.operations.length })}
          </h4>
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">{text.project.colNumber}</th>
                <th scope="col">{text.project.colTool}</th>
                <th scope="col">{text.project.colType}</th>
                <th scope="col">{text.project.colDiameter}</th>
                <th scope="col">{text.project.colHolder}</th>
              </tr>
            </thead>
            <tbody>
              {setup.tools.map((tool) => (
                <tr key={tool.number}>
                  <td class="nowrap" data-label={text.project.colNumber}>
                    T{tool.number}
                  </td>
                  <td data-label={text.project.colTool}>{tool.name}</td>
                  <td data-label={text.project.colType}>{tool.tool_type}</td>
                  <td class="nowrap" data-label={text.project.colDiameter}>
                    {formatNumber(tool.diameter_mm, { maximumFractionDigits: 2 })}
                  </td>
                  <td data-label={text.project.colHolder}>{tool.holder ?? "–"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </section>
  );
}

function TaskHistory({ tasks }: { tasks: Task[] }) {
  const text = useProjectsText();
  const { formatDateTime, formatNumber } = useI18n();
  return (
    <section class="card" aria-labelledby="tasks-title">
      <h2 id="tasks-title">{text.project.tasks}</h2>
      {tasks.length === 0 ? (
        <p class="muted">{text.project.noTasks}</p>
      ) : (
        <table class="stack tasks">
          <thead>
            <tr>
              <th scope="col">{text.project.colTask}</th>
              <th scope="col">{text.project.colStatus}</th>
              <th scope="col">{text.project.colProgress}</th>
              <th scope="col">{text.project.colCreated}</th>
              <th scope="col">{text.project.colFinished}</th>
            </tr>
          </thead>
          <tbody>
            {tasks.map((task) => (
              <tr key={task.task_id}>
                <td data-label={text.project.colTask}>
                  {task.task_name === PLANNING_TASK ? text.project.planningTask : <code>{task.task_name}</code>}
                </td>
                <td data-label={text.project.colStatus}>
                  {text.taskStatus[task.status]}
                  {task.error ? <span class="muted small"> {task.error.message}</span> : null}
                </td>
                <td data-label={text.project.colProgress}>{formatNumber(task.progress, { style: "percent" })}</td>
                <td data-label={text.project.colCreated}>{formatDateTime(task.created_at)}</td>
                <td data-label={text.project.colFinished}>
                  {task.finished_at ? formatDateTime(task.finished_at) : "–"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

interface Loaded {
  project: Project;
  tasks: Task[];
  machineName: string;
  materialName: string | null;
}

export function ProjectPage({ id }: { id?: string }) {
  const text = useProjectsText();
  const { formatDateTime } = useI18n();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>(null);
  // bumped when a plan started here ends: the page reads the project and its tasks again
  const [version, setVersion] = useState(0);
  usePageTitle(loaded?.project.name ?? text.project.summary);

  useEffect(() => {
    if (!id) return;
    // another project's page starts blank; this one's reload keeps the page while it reads
    setLoaded((now) => (now?.project.id === id ? now : null));
    setError(null);
    Promise.all([getProject(id), listProjectTasks(id), listMachines(), listMaterials()])
      .then(([project, tasks, machines, materials]) =>
        setLoaded({
          project,
          tasks: tasks.items,
          machineName: machines.items.find((m) => m.product_id === project.product_id)?.name ?? project.product_id,
          materialName: materials.items.find((m) => m.id === project.material_id)?.name ?? project.material_id,
        }),
      )
      .catch(setError);
  }, [id, version]);

  if (!id || isNotFound(error)) return <ProjectNotFound />;
  if (error) return <FormError error={error} />;
  if (!loaded) return <p class="loading">…</p>;
  const { project, tasks } = loaded;
  const planning = tasks.find((task) => task.status === "success" && planResult(task));
  const plan = planning ? planResult(planning) : null;
  const running = tasks.find((task) => task.task_name === PLANNING_TASK && !TERMINAL.has(task.status));
  const here = page(`/projects/${encodeURIComponent(project.id)}`);
  return (
    <section aria-labelledby="page-title">
      <p>
        <a href={page("/projects")}>← {text.project.back}</a>
      </p>
      <div class="card-head">
        <h1 id="page-title">{project.name}</h1>
        <a class="button primary" href={`${here}/quote`}>
          {text.project.quote}
        </a>
      </div>
      <dl class="facts">
        <dt>{text.project.customer}</dt>
        <dd>{project.customer || "–"}</dd>
        <dt>{text.project.machine}</dt>
        <dd>{loaded.machineName}</dd>
        <dt>{text.project.material}</dt>
        <dd>{loaded.materialName ?? "–"}</dd>
        <dt>{text.project.created}</dt>
        <dd>{formatDateTime(project.created_at)}</dd>
      </dl>
      <Downloads
        projectUrl={projectUrl(project.id)}
        projectId={project.id}
        plan={plan}
        hasJob={project.current_job_id !== null}
      />
      {plan ? (
        <>
          <details class="card replan" open={running !== undefined}>
            <summary>{text.project.replan}</summary>
            <PlanStep project={project} running={running} onPlanned={() => setVersion(version + 1)} again />
          </details>
          <LazyProjectViewer key={planning?.task_id} projectId={project.id} />
          <Summary plan={plan} />
        </>
      ) : project.current_job_id ? (
        <>
          <PlanStep project={project} running={running} onPlanned={() => setVersion(version + 1)} />
          {/* a job imported from a .famc file is planned without a planning task */}
          <LazyProjectViewer key={project.current_job_id} projectId={project.id} ifPlanned />
        </>
      ) : (
        <p class="muted">{text.project.noPart}</p>
      )}
      <TaskHistory tasks={tasks} />
    </section>
  );
}
