import type { EndedCredentials } from '@cloud/sdk/browser';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../components/Alert';
import { endedWords } from '../ended-words';
import { useApi, useConsole } from '../context';
import { newPassword, NewPasswordFields, PASSWORDS_DIFFER } from '../components/NewPassword';
import { LIMITS } from '../limits';
import { usePageTitle } from '../title';

/** The password-reset e-mail's link: /reset-password?user=<userId>&token=<token>. */
export function ResetPasswordPage() {
  usePageTitle('Set a new password');
  const { client } = useConsole();
  const { error, setError, run } = useApi();
  const [params] = useSearchParams();
  const [ended, setEnded] = useState<EndedCredentials | null>(null);
  const userId = params.get('user');
  const token = params.get('token');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = newPassword(form);
    if (password === undefined) return setError({ message: PASSWORDS_DIFFER });
    if (!userId || !token) return setError({ message: 'This link is incomplete: open the whole link from the password-reset e-mail.' });
    const result = await run(() => client.accounts.resetPassword(userId, token, password));
    if (result.ok) setEnded(result.value.ended);
  };

  return (
    <section aria-labelledby="reset-title">
      <h1 id="reset-title">Set a new password</h1>
      <Alert error={error} />
      {ended ? (
        <>
          <p role="status">Your password is changed. {endedWords(ended)}</p>
          <p>
            <Link to="/login">Log in</Link>
          </p>
        </>
      ) : (
        <form onSubmit={(event) => void submit(event)} className="form">
          <NewPasswordFields label="New password" limit={LIMITS.accounts.PasswordReset.password} />
          <button type="submit" className="button-primary">
            Set the password
          </button>
        </form>
      )}
    </section>
  );
}
