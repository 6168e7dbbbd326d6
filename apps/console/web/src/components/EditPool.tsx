import type { Node, Pool } from '@cloud/sdk/browser';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useApi, useConsole } from '../context';
import { inputLimits, LIMITS } from '../limits';
import { Alert } from './Alert';
import { MemberChoices } from './MemberChoices';

/**
 * A pool's change form: its name, its lag bound and its members (as a whole, chosen among your
 * nodes of the pool's chain, which is the pool's for good). What it shows at first is the pool as
 * the page first read it; Save sends all three, and the page shows the pool the API answers.
 */
export function EditPool({ pool, onSaved }: { pool: Pool; onSaved: (pool: Pool) => void }) {
  const { client } = useConsole();
  const { error, run } = useApi();
  const [nodes, setNodes] = useState<Node[] | null>(null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(pool.members.map((member) => member.nodeId)));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const ids = { members: useId(), name: useId(), lag: useId() };
  const limits = LIMITS.nodes.UpdatePoolRequest;

  useEffect(() => {
    void run(() => client.nodes.list()).then((result) => {
      if (result.ok) setNodes(result.value.filter((node) => node.image === pool.image && node.dev === pool.dev && node.state !== 'deleting'));
    });
  }, [client, run, pool.image, pool.dev]);

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setSaved(false);
    const result = await run(() =>
      client.pools.update(pool.id, {
        name: String(form.get('name') ?? '').trim(),
        maxLagBlocks: Number(form.get('maxLagBlocks')),
        members: (nodes ?? []).filter((node) => chosen.has(node.id)).map((node) => node.id),
      }),
    );
    setBusy(false);
    if (!result.ok) return;
    setSaved(true);
    onSaved(result.value);
  };

  return (
    <section aria-labelledby="edit-pool-title" className="panel">
      <h2 id="edit-pool-title">Change the pool</h2>
      <Alert error={error} />
      <p role="status" className={saved ? 'status' : 'status status-empty'}>
        {saved ? 'Saved: every proxy takes the change within a second.' : null}
      </p>
      <form onSubmit={(event) => void save(event)} className="form">
        <fieldset className="choice" data-testid="pool-members-edit">
          <legend>Members</legend>
          <p className="hint">Your {pool.networkLabel} nodes; the ones checked replace the members.</p>
          <MemberChoices idPrefix={ids.members} nodes={nodes ?? []} chosen={chosen} onChange={setChosen} />
        </fieldset>
        <label htmlFor={ids.name}>Name</label>
        <input id={ids.name} name="name" type="text" required defaultValue={pool.name} {...inputLimits(limits.name)} autoComplete="off" />
        <label htmlFor={ids.lag}>Largest lag, in blocks</label>
        <input id={ids.lag} name="maxLagBlocks" type="number" required step={1} defaultValue={pool.maxLagBlocks} {...inputLimits(limits.maxLagBlocks)} />
        <button type="submit" className="button-primary" disabled={busy || !nodes || chosen.size === 0}>
          Save the changes
        </button>
      </form>
    </section>
  );
}
