/**
 * The app: reads the session at start (401 -> the sign-in page), then routes the pages under
 * the shell. Pages are paths below the app's prefix (api/base.ts).
 */
import { LocationProvider, Route, Router, useLocation } from "preact-iso";
import { useEffect, useMemo, useState } from "preact/hooks";
import { readSession, type Session } from "./api/app-routes.ts";
import { page, pagePath } from "./api/base.ts";
import { setCsrfToken, whenSignedOut } from "./api/client.ts";
import { Shell } from "./components/shell.tsx";
import { I18nContext, initialLanguage, type Language, makeI18n, rememberLanguage } from "./i18n/index.ts";
import { KeysPage } from "./pages/keys.tsx";
import { LibrariesPage } from "./pages/libraries/libraries-page.tsx";
import { LibraryPage } from "./pages/libraries/library-page.tsx";
import { MachinesPage } from "./pages/machines/machines-page.tsx";
import { NewProjectPage } from "./pages/new-project.tsx";
import { NotFoundPage } from "./pages/not-found.tsx";
import { ProjectPage } from "./pages/project.tsx";
import { ProjectsPage } from "./pages/projects.tsx";
import { QuotePage } from "./pages/quote.tsx";
import { QuoteSettingsPage } from "./pages/settings/quote-settings.tsx";
import { SignInPage } from "./pages/sign-in.tsx";
import { SignInLinkPage } from "./pages/sign-in-link.tsx";
import { WebhooksPage } from "./pages/webhooks.tsx";
import { SessionContext, useSession } from "./session.ts";

function Home() {
  const { route } = useLocation();
  useEffect(() => route(page("/projects"), true), [route]);
  return null;
}

function Pages() {
  const { session } = useSession();
  const { path } = useLocation();
  const here = pagePath(path);

  if (here === "/sign-in/link" && !session) return <SignInLinkPage />;
  if (!session) return <SignInPage />;
  if (here === "/sign-in" || here === "/sign-in/link") return <Home />;
  return (
    <Shell>
      <Router>
        <Route path={page("/")} component={Home} />
        <Route path={page("/projects")} component={ProjectsPage} />
        <Route path={page("/projects/new")} component={NewProjectPage} />
        <Route path={page("/projects/:id")} component={ProjectPage} />
        <Route path={page("/projects/:id/quote")} component={QuotePage} />
        <Route path={page("/libraries")} component={LibrariesPage} />
        <Route path={page("/libraries/:id")} component={LibraryPage} />
        <Route path={page("/machines")} component={MachinesPage} />
        <Route path={page("/settings/keys")} component={KeysPage} />
        <Route path={page("/settings/webhooks")} component={WebhooksPage} />
        <Route path={page("/settings/quote")} component={QuoteSettingsPage} />
        <Route default component={NotFoundPage} />
      </Router>
    </Shell>
  );
}

export function App() {
  const [language, setLanguageState] = useState<Language>(initialLanguage);
  const i18n = useMemo(
    () =>
      makeI18n(language, (next) => {
        rememberLanguage(next);
        setLanguageState(next);
      }),
    [language],
  );
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  // undefined while the session is read at start
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  useEffect(() => {
    whenSignedOut(() => {
      setCsrfToken(null);
      setSession(null);
    });
    readSession()
      .then((found) => {
        setCsrfToken(found.csrf_token);
        setSession(found);
      })
      .catch(() => setSession(null));
  }, []);
  const sessionState = useMemo(() => ({ session: session ?? null, setSession }), [session]);

  return (
    <I18nContext.Provider value={i18n}>
      <SessionContext.Provider value={sessionState}>
        {session === undefined ? (
          <p class="loading" role="status">
            {i18n.t.loading}
          </p>
        ) : (
          <LocationProvider>
            <Pages />
          </LocationProvider>
        )}
      </SessionContext.Provider>
    </I18nContext.Provider>
  );
}
