/**
 * Projects: the user's projects, newest first, a page of 20 at a time as the API pages them
 * ("Show more" follows next_cursor). Each row's status comes from its latest task, read after
 * the list is shown so the list itself is not held up.
 */
import { useEffect, useState } from "preact/hooks";
import { page } from "../api/base.ts";
import { listProjects, listProjectTasks, type Project, type Task } from "../api/projects.ts";
import { FormError } from "../components/errors.tsx";
import { usePageTitle } from "../components/page-title.ts";
import { useI18n } from "../i18n/index.ts";
import { useProjectsText } from "../i18n/projects.ts";

function ProjectStatus({ project }: { project: Project }) {
  const text = useProjectsText();
  const { formatNumber } = useI18n();
  const [task, setTask] = useState<Task | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    listProjectTasks(project.id)
      .then((tasks) => live && setTask(tasks.items[0] ?? null))
      .catch(() => live && setTask(null));
    return () => {
      live = false;
    };
  }, [project.id]);

  if (task === undefined) return <span class="muted">…</span>;
  if (task === null || (task.status === "success" && !project.current_job_id))
    return <span class="badge">{project.current_job_id ? text.list.statusPart : text.list.statusNoPart}</span>;
  if (task.status === "success") return <span class="badge on">{text.list.statusPlanned}</span>;
  if (task.status === "running" || task.status === "queued")
    return (
      <span class="badge">
        {text.taskStatus[task.status]} {formatNumber(task.progress, { style: "percent" })}
      </span>
    );
  return <span class="badge off">{text.taskStatus[task.status]}</span>;
}

export function ProjectsPage() {
  const text = useProjectsText();
  const { formatDateTime } = useI18n();
  usePageTitle(text.list.title);
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const load = async (from: string | null) => {
    setBusy(true);
    try {
      const found = await listProjects(from);
      setProjects((before) => [...(from && before ? before : []), ...found.items]);
      setCursor(found.next_cursor);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    void load(null);
  }, []);

  return (
    <section aria-labelledby="page-title">
      <div class="card-head">
        <h1 id="page-title">{text.list.title}</h1>
        <a class="button primary" href={page("/projects/new")}>
          {text.list.newProject}
        </a>
      </div>
      <p class="lead">{text.list.lead}</p>
      <FormError error={error} />
      {projects === null ? null : projects.length === 0 ? (
        <p class="muted">{text.list.none}</p>
      ) : (
        <table class="stack projects">
          <thead>
            <tr>
              <th scope="col">{text.list.colName}</th>
              <th scope="col">{text.list.colCustomer}</th>
              <th scope="col">{text.list.colStatus}</th>
              <th scope="col">{text.list.colCreated}</th>
            </tr>
          </thead>
          <tbody>
            {projects.map((project) => (
              <tr key={project.id}>
                <td data-label={text.list.colName}>
                  <a href={page(`/projects/${encodeURIComponent(project.id)}`)}>{project.name}</a>
                </td>
                <td data-label={text.list.colCustomer}>{project.customer}</td>
                <td data-label={text.list.colStatus}>
                  <ProjectStatus project={project} />
                </td>
                <td data-label={text.list.colCreated}>{formatDateTime(project.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor ? (
        <p>
          <button type="button" disabled={busy} onClick={() => void load(cursor)}>
            {text.list.more}
          </button>
        </p>
      ) : null}
    </section>
  );
}
