import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../components/Alert';
import { useApi, useConsole } from '../context';
import { usePageTitle } from '../title';

/** The verification e-mail's link: /verify?user=<userId>&token=<token>. */
export function VerifyPage() {
  usePageTitle('Verify your e-mail address');
  const { client } = useConsole();
  const { error, setError, run } = useApi();
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
      setError({ message: 'This link is incomplete: open the whole link from the verification e-mail.' });
      return;
    }
    void run(() => client.accounts.verify(userId, token)).then((result) => {
      if (result.ok) setVerified(result.value.email);
    });
  }, [client, run, setError, token, userId]);

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
      <p className="actions">
        <Link to="/login" className="button-link">
          Log in
        </Link>
      </p>
    </section>
  );
}
