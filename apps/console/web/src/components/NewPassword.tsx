import { useId } from 'react';
import { inputLimits, type FieldLimit } from '../limits';

/** What the person is told when the two fields of NewPasswordFields differ. */
export const PASSWORDS_DIFFER = 'The two passwords differ: type the same password twice.';

/** The password a form's NewPasswordFields hold, or undefined when the two differ. */
export function newPassword(form: FormData): string | undefined {
  const password = String(form.get('password'));
  return password === String(form.get('again')) ? password : undefined;
}

/**
 * A new password typed twice (fields `password` and `again`), labelled `label` and `label again`,
 * held to the API's `limit` for it (its length).
 */
export function NewPasswordFields({ label, hint, limit }: { label: string; hint?: string; limit: FieldLimit }) {
  const ids = { password: useId(), again: useId(), hint: useId() };
  return (
    <>
      <label htmlFor={ids.password}>{label}</label>
      <input
        id={ids.password}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        {...inputLimits(limit)}
        {...(hint ? { 'aria-describedby': ids.hint } : {})}
      />
      {hint && (
        <p id={ids.hint} className="hint">
          {hint}
        </p>
      )}
      <label htmlFor={ids.again}>{label} again</label>
      <input id={ids.again} name="again" type="password" autoComplete="new-password" required {...inputLimits(limit)} />
    </>
  );
}
