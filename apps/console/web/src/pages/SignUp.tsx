import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert, Status } from '../components/Alert';
import { useApi, useConsole } from '../context';
import { newPassword, NewPasswordFields, PASSWORDS_DIFFER } from '../components/NewPassword';
import { LIMITS, inputLimits } from '../limits';
import { usePageTitle } from '../title';

const SIGN_UP = LIMITS.accounts.SignUpRequest;

export function SignUpPage() {
  usePageTitle('Sign up');
  const { client } = useConsole();
  const { error, setError, run } = useApi();
  const [signedUp, setSignedUp] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { email: useId(), name: useId(), country: useId() };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = newPassword(form);
    if (password === undefined) {
      setError({ message: PASSWORDS_DIFFER });
      return;
    }
    const email = String(form.get('email')).trim();
    const country = String(form.get('country')).trim();
    setBusy(true);
    const result = await run(() =>
      client.accounts.signUp({ email, password, displayName: String(form.get('name')).trim(), ...(country ? { billingAddress: { country } } : {}) }),
    );
    setBusy(false);
    if (result.ok) setSignedUp(email);
  };

  const resend = async () => {
    if (!signedUp) return;
    const result = await run(() => client.accounts.resendVerification(signedUp));
    if (result.ok) setStatus(result.value.message);
  };

  if (signedUp) {
    return (
      <section aria-labelledby="signup-done">
        <h1 id="signup-done">Check your e-mail</h1>
        <p>
          We sent a link to <strong>{signedUp}</strong>. Open it to verify your address, then log in.
        </p>
        <Alert error={error} />
        <Status message={status} />
        <p className="actions">
          <button type="button" onClick={() => void resend()}>
            Send the e-mail again
          </button>
          <Link to="/login">Log in</Link>
        </p>
      </section>
    );
  }

  return (
    <section aria-labelledby="signup-title">
      <h1 id="signup-title">Sign up</h1>
      <Alert error={error} />
      <form onSubmit={(event) => void submit(event)} className="form">
        <label htmlFor={ids.email}>E-mail address</label>
        <input id={ids.email} name="email" type="email" autoComplete="email" required {...inputLimits(SIGN_UP.email)} />
        <label htmlFor={ids.name}>Your name</label>
        <input id={ids.name} name="name" type="text" autoComplete="name" required {...inputLimits(SIGN_UP.displayName)} />
        <NewPasswordFields
          label="Password"
          hint={`At least ${SIGN_UP.password.minLength} characters, mixing letters with digits or symbols, and not containing your e-mail address.`}
          limit={SIGN_UP.password}
        />
        <label htmlFor={ids.country}>Country (optional)</label>
        <input id={ids.country} name="country" type="text" autoComplete="country-name" {...inputLimits(SIGN_UP.billingAddress.country)} />
        <button type="submit" className="button-primary" disabled={busy}>
          Sign up
        </button>
      </form>
      <p>
        Have an account? <Link to="/login">Log in</Link>
      </p>
    </section>
  );
}
