import { TwoFactorRequiredError } from '@cloud/sdk/browser';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Alert, Status } from '../components/Alert';
import { useApi, useConsole } from '../context';
import { describeError, type ShownError } from '../errors';
import { LIMITS, inputLimits } from '../limits';
import { usePageTitle } from '../title';

export function LoginPage() {
  usePageTitle('Log in');
  const { client, endedBecause } = useConsole();
  const navigate = useNavigate();
  const location = useLocation();
  const state = (location.state ?? {}) as { from?: string };
  const [error, setError] = useState<ShownError | null>(null);
  const [needsCode, setNeedsCode] = useState(false);
  const [busy, setBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const ids = { email: useId(), password: useId(), code: useId(), codeHint: useId() };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const code = String(form.get('code') ?? '').trim();
    setBusy(true);
    try {
      // Not useApi's run: here a 401 is a wrong password, said on this page, not an ended session.
      await client.login(String(form.get('email')).trim(), String(form.get('password')), code ? { code } : {});
      void navigate(state.from && state.from !== '/login' ? state.from : '/nodes', { replace: true });
    } catch (caught) {
      if (caught instanceof TwoFactorRequiredError && !needsCode) {
        setNeedsCode(true);
        setError({ message: 'This account has two-factor login on: type the code of your authenticator app (or a recovery code).' });
        setTimeout(() => codeRef.current?.focus(), 0);
      } else {
        setError(describeError(caught, 'login'));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="login-title">
      <h1 id="login-title">Log in</h1>
      <Status message={error ? null : endedBecause} />
      <Alert error={error} />
      <form onSubmit={(event) => void submit(event)} className="form">
        <label htmlFor={ids.email}>E-mail address or user id</label>
        <input id={ids.email} name="email" type="text" autoComplete="username" required />
        <label htmlFor={ids.password}>Password</label>
        <input id={ids.password} name="password" type="password" autoComplete="current-password" required />
        {needsCode && (
          <>
            <label htmlFor={ids.code}>Two-factor code</label>
            <input
              id={ids.code}
              ref={codeRef}
              name="code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              {...inputLimits(LIMITS.accounts.LoginRequest.code)}
              aria-describedby={ids.codeHint}
            />
            <p id={ids.codeHint} className="hint">
              The 6 digits your authenticator app shows now, or one of your recovery codes.
            </p>
          </>
        )}
        <button type="submit" className="button-primary" disabled={busy}>
          Log in
        </button>
      </form>
      <p>
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
      <p>
        New here? <Link to="/signup">Sign up</Link>
      </p>
    </section>
  );
}

export function ForgotPasswordPage() {
  usePageTitle('Forgot your password');
  const { client } = useConsole();
  const { error, run } = useApi();
  const [sent, setSent] = useState<string | null>(null);
  const emailId = useId();
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email')).trim();
    const result = await run(() => client.accounts.requestPasswordReset(email));
    if (result.ok) setSent(result.value.message);
  };
  return (
    <section aria-labelledby="forgot-title">
      <h1 id="forgot-title">Forgot your password</h1>
      <p>We e-mail you a link to set a new one.</p>
      <Alert error={error} />
      <Status message={sent} />
      <form onSubmit={(event) => void submit(event)} className="form">
        <label htmlFor={emailId}>E-mail address</label>
        <input id={emailId} name="email" type="email" autoComplete="email" required {...inputLimits(LIMITS.accounts.PasswordResetRequest.email)} />
        <button type="submit" className="button-primary">
          Send the link
        </button>
      </form>
      <p>
        <Link to="/login">Back to log in</Link>
      </p>
    </section>
  );
}
