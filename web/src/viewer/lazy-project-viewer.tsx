/**
 * The project viewer, loaded when a planned project's page shows it: its components, texts and
 * three.js are chunks of their own, so the script every page loads (the projects list's too)
 * does not carry them. `ifPlanned` is for a page that does not know whether the current job has
 * a plan (one imported from a .famc file has no planning task): the view shows only once the
 * server says it has one, and nothing (no error) while it has none.
 */
import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { readProjectPart } from "../api/app-routes.ts";
import { FormError } from "../components/errors.tsx";

type Viewer = FunctionComponent<{ projectId: string }>;

export function LazyProjectViewer({ projectId, ifPlanned = false }: { projectId: string; ifPlanned?: boolean }) {
  const [viewer, setViewer] = useState<{ component: Viewer } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [unplanned, setUnplanned] = useState(false);
  useEffect(() => {
    let live = true;
    // asked only when unsure (an answer, not a refusal the console would log); a planned page
    // loads the chunk at once
    const planned = ifPlanned ? readProjectPart(projectId).then((answer) => answer.planned) : Promise.resolve(true);
    planned
      .then(async (yes) => {
        if (!yes) {
          if (live) setUnplanned(true);
          return;
        }
        const module = await import("./project-viewer.tsx");
        if (live) setViewer({ component: module.ProjectViewer });
      })
      .catch((reason: unknown) => live && setError(reason));
    return () => {
      live = false;
    };
  }, [projectId, ifPlanned]);
  if (unplanned) return null;
  if (error) return <FormError error={error} />;
  if (!viewer) return ifPlanned ? null : <section class="card viewer" data-ready="false" aria-busy="true" />;
  const ProjectViewer = viewer.component;
  return <ProjectViewer projectId={projectId} />;
}
