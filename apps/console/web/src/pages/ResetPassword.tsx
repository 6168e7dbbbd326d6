import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../components/Alert';
import { useApi, useConsole } from '../context';
import { usePageTitle } from '../title';

/** The password-reset e-mail's link: /reset-password?user=<userId>&token=<token>. */
export function ResetPasswordPage() {
  usePageTitle('Set a new password');
  const { client } = useConsole();
  const { error, setError, run } = useApi();
  const [params] = useSearchParams();
  const [done, setDone] = useState(false);
  const ids = { password: useId(), again: useId() };
  const userId = params.get('user');
  const token = params.get('token');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password'));
    if (password !== String(form.get('again'))) return setError({ message: 'The two passwords differ: type the same password twice.' });
    if (!userId || !token) return setError({ message: 'This link is incomplete: open the whole link from the password-reset e-mail.' });
    const result = await run(() => client.accounts.resetPassword(userId, token, password));
    if (result.ok) setDone(true);
  };

  return (
    <section aria-labelledby="reset-title">
      <h1 id="reset-title">Set a new password</h1>
      <Alert error={error} />
      {done ? (
        <>
          <p role="status">Your password is changed, and every session before it has ended.</p>
          <p>
            <Link to="/login">Log in</Link>
          </p>
        </>
      ) : (
        <form onSubmit={(event) => void submit(event)} className="form">
          <label htmlFor={ids.password}>New password</label>
          <input id={ids.password} name="password" type="password" autoComplete="new-password" required />
          <label htmlFor={ids.again}>New password again</label>
          <input id={ids.again} name="again" type="password" autoComplete="new-password" required />
          <button type="submit" className="button-primary">
            Set the password
          </button>
        </form>
      )}
    </section>
  );
}
