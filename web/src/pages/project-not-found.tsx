/** The page for a project id that is not one of the user's (another user's, unknown, malformed). */
import { page } from "../api/base.ts";
import { ApiError } from "../api/client.ts";
import { usePageTitle } from "../components/page-title.ts";
import { useProjectsText } from "../i18n/projects.ts";

/** the API's answer for an id that names none of the user's projects */
export function isNotFound(error: unknown): boolean {
  return (
    error instanceof ApiError && (error.status === 404 || (error.status === 400 && error.code !== "csrf_token_invalid"))
  );
}

export function ProjectNotFound() {
  const text = useProjectsText();
  usePageTitle(text.project.notFoundTitle);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{text.project.notFoundTitle}</h1>
      <p>{text.project.notFoundLead}</p>
      <p>
        <a href={page("/projects")}>{text.project.back}</a>
      </p>
    </section>
  );
}
