/** The page for a path the app does not know. */
import { page } from "../api/base.ts";
import { usePageTitle } from "../components/page-title.ts";
import { useI18n } from "../i18n/index.ts";

export function NotFoundPage() {
  const { t } = useI18n();
  usePageTitle(t.notFound.title);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t.notFound.title}</h1>
      <p>{t.notFound.lead}</p>
      <p>
        <a href={page("/projects")}>{t.notFound.home}</a>
      </p>
    </section>
  );
}
