import type { NodeAccess } from '@cloud/sdk/browser';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useApi, useConsole } from '../context';
import { LIMITS, inputLimits, listProblem } from '../limits';
import { Alert, Status } from './Alert';

const ACCESS = LIMITS.nodes.NodeAccessRequest;

const lines = (text: FormDataEntryValue | null) =>
  String(text ?? '')
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);

/** Who may call the node, from where, which methods it refuses on top of the platform's, how fast, and how large an answer it gives. */
export function AccessRules({ nodeId }: { nodeId: string }) {
  const { client } = useConsole();
  const { error, setError, run } = useApi();
  const [access, setAccess] = useState<NodeAccess | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const ids = { ips: useId(), origins: useId(), methods: useId(), ipsHint: useId(), originsHint: useId() };

  useEffect(() => {
    void run(() => client.nodes.access(nodeId)).then((result) => result.ok && setAccess(result.value));
  }, [client, nodeId, run]);

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const rate = String(form.get('rate') ?? '').trim();
    const answer = String(form.get('answer') ?? '').trim();
    setSaved(null);
    const rules = { ipAllowlist: lines(form.get('ips')), originAllowlist: lines(form.get('origins')), refusedMethods: lines(form.get('methods')) };
    // The API's limits of each list, checked here first, so the form says which list and what to do.
    const problem =
      listProblem('Addresses', rules.ipAllowlist, ACCESS.ipAllowlist) ??
      listProblem('Web origins', rules.originAllowlist, ACCESS.originAllowlist) ??
      listProblem('Methods it refuses', rules.refusedMethods, ACCESS.refusedMethods, 'a method name (a letter, then letters, digits, _ or .)');
    if (problem) {
      setError({ message: problem });
      return;
    }
    const result = await run(() =>
      client.nodes.setAccess(nodeId, { ...rules, ratePerSecond: rate ? Number(rate) : null, maxAnswerBytes: answer ? Number(answer) : null }),
    );
    if (result.ok) {
      setAccess(result.value.access);
      setSaved('Access rules saved: the proxies apply them within a second.');
    }
  };

  return (
    <section aria-labelledby="access-title" className="panel">
      <h2 id="access-title">Access rules</h2>
      <Alert error={error} />
      <Status message={saved} />
      {access && (
        <form onSubmit={(event) => void save(event)} className="form" key={JSON.stringify(access)}>
          <label htmlFor={ids.ips}>Addresses it takes calls from</label>
          <textarea id={ids.ips} name="ips" rows={3} defaultValue={access.ipAllowlist.join('\n')} aria-describedby={ids.ipsHint} />
          <p id={ids.ipsHint} className="hint">
            One address or CIDR a line (203.0.113.0/24); none: anywhere.
          </p>
          <label htmlFor={ids.origins}>Web origins that may call it (CORS)</label>
          <textarea id={ids.origins} name="origins" rows={2} defaultValue={access.originAllowlist.join('\n')} aria-describedby={ids.originsHint} />
          <p id={ids.originsHint} className="hint">
            One origin a line (https://app.example.com); none: no calls from web pages.
          </p>
          <label htmlFor={ids.methods}>Methods it refuses, on top of the platform's</label>
          <textarea id={ids.methods} name="methods" rows={2} defaultValue={access.refusedMethods.join('\n')} />
          <WholeNumberField
            name="rate"
            label="Calls per second at most"
            limits={ACCESS.ratePerSecond}
            value={access.ratePerSecond}
            hint="Empty: the platform's rate."
          />
          <WholeNumberField
            name="answer"
            label="Largest answer, in bytes"
            limits={ACCESS.maxAnswerBytes}
            value={access.maxAnswerBytes}
            hint="A larger answer is refused (-32005), so one short call cannot make the node send megabytes. Empty: the platform's bound."
          />
          <button type="submit" className="button-primary">
            Save the access rules
          </button>
        </form>
      )}
    </section>
  );
}

/** A whole number the API takes within `limits`, or empty for the platform's; its hint says what empty means. */
function WholeNumberField(props: { name: string; label: string; limits: Parameters<typeof inputLimits>[0]; value: number | null; hint: string }) {
  const id = useId();
  const hintId = useId();
  return (
    <>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type="number"
        {...inputLimits(props.limits)}
        step={1}
        inputMode="numeric"
        defaultValue={props.value ?? ''}
        aria-describedby={hintId}
      />
      <p id={hintId} className="hint">
        {props.hint}
      </p>
    </>
  );
}
