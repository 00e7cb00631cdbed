/**
 * Projects: the user's projects, newest first, a page of 20 at a time ("Show more" follows
 * next_cursor), each with its part's thumbnail and its latest task's status. One request a
 * page (the app's GET /projects carries both), so the list shows complete at once.
 */
import { useEffect, useState } from "preact/hooks";
import { type ListedProject, listProjectsWithStatus } from "../api/app-routes.ts";
import { page } from "../api/base.ts";
import { FormError } from "../components/errors.tsx";
import { usePageTitle } from "../components/page-title.ts";
import { fill, useI18n } from "../i18n/index.ts";
import { useProjectsText } from "../i18n/projects.ts";
import "./projects.css";

function ProjectStatus({ project }: { project: ListedProject }) {
  const text = useProjectsText();
  const { formatNumber } = useI18n();
  const task = project.latest_task;
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

/** the part's image, loaded only when its row scrolls near; a box of the same size without one */
function Thumbnail({ project }: { project: ListedProject }) {
  const text = useProjectsText();
  if (!project.thumbnail_url) return <span class="thumb none">{text.list.noThumbnail}</span>;
  const alt = project.part_name
    ? fill(text.list.thumbnailOf, { file: project.part_name })
    : fill(text.list.thumbnailOfProject, { name: project.name });
  return (
    <img class="thumb" src={project.thumbnail_url} alt={alt} width={64} height={64} loading="lazy" decoding="async" />
  );
}

export function ProjectsPage() {
  const text = useProjectsText();
  const { formatDateTime } = useI18n();
  usePageTitle(text.list.title);
  const [projects, setProjects] = useState<ListedProject[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const load = async (from: string | null) => {
    setBusy(true);
    try {
      const found = await listProjectsWithStatus(from);
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
              <th scope="col">{text.list.colPart}</th>
              <th scope="col">{text.list.colName}</th>
              <th scope="col">{text.list.colCustomer}</th>
              <th scope="col">{text.list.colStatus}</th>
              <th scope="col">{text.list.colCreated}</th>
            </tr>
          </thead>
          <tbody>
            {projects.map((project) => (
              <tr key={project.id}>
                <td data-label={text.list.colPart} class="thumb-cell">
                  <Thumbnail project={project} />
                </td>
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
