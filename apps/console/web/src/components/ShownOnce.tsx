import { CopyableCode } from './Copyable';

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
          <CopyableCode text={name.value} label={`Copy the ${name.label.toLowerCase()}`} testId={name.testId} />
        </dd>
        <dt>{secret.label}</dt>
        <dd>
          <CopyableCode text={secret.value} label={`Copy the ${secret.label.toLowerCase()}`} testId={secret.testId} secret />
        </dd>
      </dl>
    </>
  );
}
