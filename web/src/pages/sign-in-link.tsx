/**
 * /sign-in/link#<token>: a one-time link from `cli user login-link`. The token is in the
 * fragment, so it never reaches a request line or a log; it is taken off the address bar
 * before it is sent, so a reload or a shared screen does not show it.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { signInWithLink } from "../api/app-routes.ts";
import { page } from "../api/base.ts";
import { setCsrfToken } from "../api/client.ts";
import { FormError } from "../components/errors.tsx";
import { usePageTitle } from "../components/page-title.ts";
import { useI18n } from "../i18n/index.ts";
import { useSession } from "../session.ts";

export function SignInLinkPage() {
  const { t } = useI18n();
  const { setSession } = useSession();
  const [error, setError] = useState<unknown>(null);
  const [missing, setMissing] = useState(false);
  const started = useRef(false);
  usePageTitle(t.signIn.linkTitle);

  // once: the token is taken off the address bar and can be used only once anyway; with a
  // session set, the app routes on to Projects
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = decodeURIComponent(location.hash.slice(1));
    history.replaceState(history.state, "", location.pathname);
    if (!token) {
      setMissing(true);
      return;
    }
    signInWithLink(token)
      .then((session) => {
        setCsrfToken(session.csrf_token);
        setSession(session);
      })
      .catch(setError);
  }, [setSession]);

  return (
    <main id="main" class="sign-in">
      <div class="card narrow">
        <p class="brand">{t.appName}</p>
        <h1>{t.signIn.linkTitle}</h1>
        {missing ? (
          <p role="alert" class="form-error">
            {t.signIn.linkMissing}
          </p>
        ) : error ? (
          <FormError error={error} />
        ) : (
          <p role="status">{t.signIn.linkBusy}</p>
        )}
        {missing || error ? (
          <p>
            <a href={page("/sign-in")}>{t.signIn.linkToForm}</a>
          </p>
        ) : null}
      </div>
    </main>
  );
}
