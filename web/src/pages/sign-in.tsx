/** Sign in with email and password (POST .../app/session); the API's message on failure. */
import { useState } from "preact/hooks";
import { signIn } from "../api/app-routes.ts";
import { setCsrfToken } from "../api/client.ts";
import { FieldError, FormError, fieldError } from "../components/errors.tsx";
import { usePageTitle } from "../components/page-title.ts";
import { LanguageSwitch } from "../components/shell.tsx";
import { useI18n } from "../i18n/index.ts";
import { useSession } from "../session.ts";

export function SignInPage() {
  const { t } = useI18n();
  const { setSession } = useSession();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  usePageTitle(t.signIn.title);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const session = await signIn(email.trim(), password);
      setCsrfToken(session.csrf_token);
      setSession(session);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  const emailError = fieldError(error, "email");
  const passwordError = fieldError(error, "password");
  return (
    <main id="main" class="sign-in">
      <div class="card narrow">
        <div class="card-head">
          <p class="brand">{t.appName}</p>
          <LanguageSwitch />
        </div>
        <h1>{t.signIn.title}</h1>
        <form onSubmit={(event) => void submit(event)} noValidate aria-describedby="sign-in-error">
          <FormError error={emailError || passwordError ? null : error} id="sign-in-error" />
          <div class="field">
            <label for="email">{t.signIn.email}</label>
            <input
              id="email"
              name="email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onInput={(event) => setEmail(event.currentTarget.value)}
              aria-invalid={emailError ? true : undefined}
              aria-describedby={emailError ? "email-error" : undefined}
            />
            <FieldError id="email-error" message={emailError} />
          </div>
          <div class="field">
            <label for="password">{t.signIn.password}</label>
            <input
              id="password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onInput={(event) => setPassword(event.currentTarget.value)}
              aria-invalid={passwordError ? true : undefined}
              aria-describedby={passwordError ? "password-error" : undefined}
            />
            <FieldError id="password-error" message={passwordError} />
          </div>
          <button type="submit" class="primary" disabled={busy}>
            {busy ? t.signIn.busy : t.signIn.submit}
          </button>
        </form>
        <p class="muted small">{t.signIn.noAccount}</p>
      </div>
    </main>
  );
}
