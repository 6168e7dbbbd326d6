import { CopyButton } from './CopyButton';

interface Fact {
  /** What it is, as the person reads it: "User", "Client secret". */
  label: string;
  value: string;
  testId: string;
}

/**
 * A name and its secret from a create answer, each with a copy button, under the warning that
 * this is the only time they are shown: the console keeps neither (a node's Basic credentials,
 * a client key).
 */
export function ShownOnce({ name, secret }: { name: Fact; secret: Fact }) {
  return (
    <>
      <p>
        <strong>Copy the {secret.label.toLowerCase()} now: it is shown this once.</strong> The console does not keep it.
      </p>
      <dl className="facts">
        <dt>{name.label}</dt>
        <dd>
          <code data-testid={name.testId}>{name.value}</code> <CopyButton text={name.value} label={`Copy the ${name.label.toLowerCase()}`} />
        </dd>
        <dt>{secret.label}</dt>
        <dd>
          <code data-testid={secret.testId} className="secret">
            {secret.value}
          </code>{' '}
          <CopyButton text={secret.value} label={`Copy the ${secret.label.toLowerCase()}`} />
        </dd>
      </dl>
    </>
  );
}
