import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Status } from '../components/Alert';
import { useApi, useConsole } from '../context';
import { asSentence, INCOMPLETE_VERIFY_LINK } from '../errors';
import { LIMITS, inputLimits } from '../limits';
import { usePageTitle } from '../title';

/** The verification e-mail's link: /verify?user=<userId>&token=<token>. */
export function VerifyPage() {
  usePageTitle('Verify your e-mail address');
  const { client } = useConsole();
  const { error, setError, run } = useApi('verify');
  const resendApi = useApi();
  const [resent, setResent] = useState<string | null>(null);
  const emailId = useId();
  const [params] = useSearchParams();
  const [verified, setVerified] = useState<string | null>(null);
  const started = useRef(false);
  const userId = params.get('user');
  const token = params.get('token');

  useEffect(() => {
    // Once, also under StrictMode's double effects: a token verifies only once.
    if (started.current) return;
    started.current = true;
    if (!userId || !token) {
      setError({ message: INCOMPLETE_VERIFY_LINK });
      return;
    }
    void run(() => client.accounts.verify(userId, token)).then((result) => {
      if (result.ok) setVerified(result.value.email);
    });
  }, [client, run, setError, token, userId]);

  const resend = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email')).trim();
    setResent(null);
    const result = await resendApi.run(() => client.accounts.resendVerification(email));
    if (result.ok) setResent(asSentence(result.value.message));
  };

  return (
    <section aria-labelledby="verify-title">
      <h1 id="verify-title">Verify your e-mail address</h1>
      <Alert error={error} />
      {verified && (
        <p role="status">
          Your e-mail address <strong>{verified}</strong> is verified. You can log in now.
        </p>
      )}
      {!verified && !error && <p>Verifying…</p>}
      {error && error.code !== 'UserVerified' && (
        <form onSubmit={(event) => void resend(event)} className="form" aria-labelledby="resend-title">
          <h2 id="resend-title">Get a new verification e-mail</h2>
          <Alert error={resendApi.error} />
          <Status message={resent} />
          <label htmlFor={emailId}>E-mail address you signed up with</label>
          <input id={emailId} name="email" type="email" autoComplete="email" required {...inputLimits(LIMITS.accounts.SignUpRequest.email)} />
          <button type="submit">Send a new link</button>
        </form>
      )}
      <p className="actions">
        <Link to="/login" className="button-link">
          Log in
        </Link>
      </p>
    </section>
  );
}
