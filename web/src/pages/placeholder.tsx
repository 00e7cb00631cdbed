/** A page that has its place in the navigation before its content is built. */
import { page } from "../api/base.ts";
import { usePageTitle } from "../components/page-title.ts";
import { useI18n } from "../i18n/index.ts";

export function PlaceholderPage({ title, lead }: { title: string; lead: string }) {
  const { t } = useI18n();
  usePageTitle(title);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      <p class="lead">{lead}</p>
      <p class="muted">{t.placeholder.comingSoon}</p>
    </section>
  );
}

export function ProjectsPage() {
  const { t } = useI18n();
  return <PlaceholderPage title={t.nav.projects} lead={t.placeholder.projectsLead} />;
}

export function LibrariesPage() {
  const { t } = useI18n();
  return <PlaceholderPage title={t.nav.libraries} lead={t.placeholder.librariesLead} />;
}

export function MachinesPage() {
  const { t } = useI18n();
  return <PlaceholderPage title={t.nav.machines} lead={t.placeholder.machinesLead} />;
}

export function QuoteSettingsPage() {
  const { t } = useI18n();
  return <PlaceholderPage title={t.nav.quoteSettings} lead={t.placeholder.quoteLead} />;
}

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
