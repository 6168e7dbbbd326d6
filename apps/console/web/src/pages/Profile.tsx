import type { UserProfile } from '@cloud/sdk/browser';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Alert, Status } from '../components/Alert';
import { endedWords } from '../ended-words';
import { useApi, useConsole } from '../context';
import { newPassword, NewPasswordFields, PASSWORDS_DIFFER } from '../components/NewPassword';
import { LIMITS, inputLimits } from '../limits';
import { usePageTitle } from '../title';

const PROFILE = LIMITS.accounts.UpdateProfileRequest;
const PASSWORD_CHANGE = LIMITS.accounts.ChangePasswordRequest;

export function ProfilePage() {
  usePageTitle('Profile');
  const { client } = useConsole();
  const profileApi = useApi();
  const passwordApi = useApi();
  const [profile, setProfile] = useState<UserProfile | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [passwordSaid, setPasswordSaid] = useState<string | null>(null);
  const ids = { name: useId(), country: useId(), old: useId() };
  const { run: runProfile } = profileApi;

  useEffect(() => {
    void runProfile(() => client.accounts.profile()).then((result) => result.ok && setProfile(result.value));
  }, [client, runProfile]);

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setSaved(null);
    const result = await profileApi.run(() =>
      client.accounts.updateProfile({
        displayName: String(form.get('name')).trim(),
        billingAddress: { ...profile?.billingAddress, country: String(form.get('country')).trim() },
      }),
    );
    if (result.ok) {
      setProfile(result.value);
      setSaved('Profile saved.');
    }
  };

  const changePassword = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setPasswordSaid(null);
    const next = newPassword(form);
    if (next === undefined) return passwordApi.setError({ message: PASSWORDS_DIFFER });
    // The SDK takes the answer's fresh account token and makes the session a new client key.
    const result = await passwordApi.run(() => client.accounts.changePassword(String(form.get('old')), next));
    if (result.ok) {
      formElement.reset();
      setPasswordSaid(`Password changed. ${endedWords(result.value.ended)} This session goes on.`);
    }
  };

  return (
    <>
      <h1>Profile</h1>
      <section aria-labelledby="profile-title" className="panel">
        <h2 id="profile-title">Your details</h2>
        <Alert error={profileApi.error} />
        <Status message={saved} />
        {profile && (
          <>
            <dl className="facts">
              <dt>E-mail address</dt>
              <dd>{profile.email}</dd>
              <dt>User id</dt>
              <dd className="mono">{profile.id}</dd>
              <dt>Member since</dt>
              <dd>{new Date(profile.createdAt).toLocaleDateString()}</dd>
            </dl>
            <form onSubmit={(event) => void save(event)} className="form" key={profile.updatedAt}>
              <label htmlFor={ids.name}>Name</label>
              <input
                id={ids.name}
                name="name"
                type="text"
                autoComplete="name"
                required
                {...inputLimits(PROFILE.displayName)}
                defaultValue={profile.displayName}
              />
              <label htmlFor={ids.country}>Country</label>
              <input
                id={ids.country}
                name="country"
                type="text"
                autoComplete="country-name"
                {...inputLimits(PROFILE.billingAddress.country)}
                defaultValue={profile.billingAddress?.country ?? ''}
              />
              <button type="submit" className="button-primary">
                Save
              </button>
            </form>
          </>
        )}
      </section>
      <section aria-labelledby="password-title" className="panel">
        <h2 id="password-title">Change the password</h2>
        <Alert error={passwordApi.error} />
        <Status message={passwordSaid} />
        <form onSubmit={(event) => void changePassword(event)} className="form">
          <label htmlFor={ids.old}>Current password</label>
          <input id={ids.old} name="old" type="password" autoComplete="current-password" required {...inputLimits(PASSWORD_CHANGE.oldPassword)} />
          <NewPasswordFields label="New password" limit={PASSWORD_CHANGE.newPassword} />
          <button type="submit" className="button-primary">
            Change the password
          </button>
        </form>
      </section>
    </>
  );
}
