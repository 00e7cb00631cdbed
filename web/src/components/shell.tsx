/**
 * The frame of every signed-in page: the navigation bar (collapsed behind a "Menu" button on
 * a phone), the signed-in email, "Sign out" and the language switch.
 */
import { type ComponentChildren, createContext } from "preact";
import { useLocation } from "preact-iso";
import { useContext, useEffect, useState } from "preact/hooks";
import { signOut } from "../api/app-routes.ts";
import { page, pagePath } from "../api/base.ts";
import { setCsrfToken } from "../api/client.ts";
import { LANGUAGES, useI18n } from "../i18n/index.ts";
import { useSession } from "../session.ts";
import { FormError } from "./errors.tsx";

/** a link chosen in the collapsed menu closes it, the current page's own link too */
const CloseMenu = createContext<() => void>(() => undefined);

function NavLink({ href, children }: { href: string; children: ComponentChildren }) {
  const { path } = useLocation();
  const close = useContext(CloseMenu);
  const here = pagePath(path);
  const current = here === href || here.startsWith(`${href}/`);
  return (
    <a href={page(href)} aria-current={current ? "page" : undefined} onClick={close}>
      {children}
    </a>
  );
}

export function LanguageSwitch() {
  const { t, language, setLanguage } = useI18n();
  return (
    <label class="language">
      <span class="visually-hidden">{t.language}</span>
      <select value={language} onChange={(event) => setLanguage(event.currentTarget.value as typeof language)}>
        {LANGUAGES.map((code) => (
          <option key={code} value={code}>
            {code === "en" ? "English" : "Deutsch"}
          </option>
        ))}
      </select>
    </label>
  );
}

export function Shell({ children }: { children: ComponentChildren }) {
  const { t } = useI18n();
  const { session, setSession } = useSession();
  const { path } = useLocation();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // going to another page (back and forward too) closes the collapsed menu
  useEffect(() => setOpen(false), [path]);

  const leave = async () => {
    try {
      await signOut();
      setCsrfToken(null);
      setSession(null);
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <>
      <a class="skip" href="#main">
        {t.skipToContent}
      </a>
      <header class="bar">
        <a class="brand" href={page("/projects")}>
          {t.appName}
        </a>
        <button
          type="button"
          class="menu-toggle"
          aria-expanded={open}
          aria-controls="main-nav"
          onClick={() => setOpen(!open)}
        >
          {t.menu}
        </button>
        <nav id="main-nav" aria-label={t.mainNavigation} class={open ? "open" : undefined}>
          <CloseMenu.Provider value={() => setOpen(false)}>
            <ul class="primary">
              <li>
                <NavLink href="/projects">{t.nav.projects}</NavLink>
              </li>
              <li>
                <NavLink href="/libraries">{t.nav.libraries}</NavLink>
              </li>
              <li>
                <NavLink href="/machines">{t.nav.machines}</NavLink>
              </li>
              <li class="group">
                <span class="group-label">{t.nav.settings}</span>
                <ul>
                  <li>
                    <NavLink href="/settings/keys">{t.nav.keys}</NavLink>
                  </li>
                  <li>
                    <NavLink href="/settings/webhooks">{t.nav.webhooks}</NavLink>
                  </li>
                  <li>
                    <NavLink href="/settings/quote">{t.nav.quoteSettings}</NavLink>
                  </li>
                </ul>
              </li>
            </ul>
          </CloseMenu.Provider>
          <div class="account">
            <span class="who">
              <span class="visually-hidden">{t.nav.signedInAs} </span>
              {session?.user.email}
            </span>
            <LanguageSwitch />
            <button type="button" onClick={() => void leave()}>
              {t.nav.signOut}
            </button>
          </div>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <FormError error={error} />
        {children}
      </main>
    </>
  );
}
