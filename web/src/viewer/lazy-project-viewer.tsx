/**
 * The project viewer, loaded when a planned project's page shows it: its components, texts and
 * three.js are chunks of their own, so the script every page loads (the projects list's too)
 * does not carry them.
 */
import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { FormError } from "../components/errors.tsx";

type Viewer = FunctionComponent<{ projectId: string }>;

export function LazyProjectViewer({ projectId }: { projectId: string }) {
  const [viewer, setViewer] = useState<{ component: Viewer } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    import("./project-viewer.tsx")
      .then((module) => live && setViewer({ component: module.ProjectViewer }))
      .catch((reason: unknown) => live && setError(reason));
    return () => {
      live = false;
    };
  }, []);
  if (error) return <FormError error={error} />;
  if (!viewer) return <section class="card viewer" data-ready="false" aria-busy="true" />;
  const ProjectViewer = viewer.component;
  return <ProjectViewer projectId={projectId} />;
}
