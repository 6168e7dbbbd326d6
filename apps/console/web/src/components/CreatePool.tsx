import type { Node, Pool } from '@cloud/sdk/browser';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useApi, useConsole } from '../context';
import { inputLimits, LIMITS } from '../limits';
import { useCreation } from '../list-page';
import { Alert } from './Alert';
import { MemberChoices } from './MemberChoices';

/** The nodes a pool can be made of, by chain: one image on one network (a dev chain is its own); never validators' nodes or nodes being deleted. */
interface NodeGroup {
  key: string;
  label: string;
  nodes: Node[];
}

/** The API's default lag bound (services/nodes): what the field starts at. */
const DEFAULT_MAX_LAG_BLOCKS = 5;

function poolableGroups(nodes: Node[]): NodeGroup[] {
  const groups = new Map<string, NodeGroup>();
  for (const node of nodes) {
    if (node.image.startsWith('avalanche') || node.state === 'deleting') continue;
    const key = `${node.image}:${node.dev}`;
    const group = groups.get(key) ?? { key, label: `${node.image} · ${node.networkLabel}`, nodes: [] };
    group.nodes.push(node);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * The pools page's create form: a chain among those of your nodes, the nodes of it to pool (check
 * boxes), a name and the lag bound. The pool's password, in the create answer only, is kept in
 * memory for its page to show once.
 */
export function CreatePool({ onCreated }: { onCreated: (pool: Pool) => void }) {
  const { client } = useConsole();
  const { error, run } = useApi();
  const {
    busy,
    created,
    create: createWith,
  } = useCreation(run, onCreated, (pool: Pool) =>
    pool.nodeUser && pool.nodePass ? { id: pool.id, secret: { user: pool.nodeUser, password: pool.nodePass } } : undefined,
  );
  const [groups, setGroups] = useState<NodeGroup[] | null>(null);
  const [groupKey, setGroupKey] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const ids = { chain: useId(), members: useId(), name: useId(), nameHint: useId(), lag: useId(), lagHint: useId() };
  const limits = LIMITS.nodes.CreatePoolRequest;

  useEffect(() => {
    void run(() => client.nodes.list()).then((result) => {
      if (!result.ok) return;
      const found = poolableGroups(result.value);
      setGroups(found);
      setGroupKey((current) => current || (found[0]?.key ?? ''));
    });
  }, [client, run]);

  const group = groups?.find((each) => each.key === groupKey);
  const choose = (key: string) => {
    setGroupKey(key);
    setChosen(new Set());
  };

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const nameInput = event.currentTarget.elements.namedItem('name');
    const pool = await createWith(() =>
      client.pools.create({
        name: String(form.get('name') ?? '').trim(),
        // In the list's order (oldest node first), as the person sees them.
        members: (group?.nodes ?? []).filter((node) => chosen.has(node.id)).map((node) => node.id),
        maxLagBlocks: Number(form.get('maxLagBlocks')),
      }),
    );
    if (!pool) return;
    setChosen(new Set());
    if (nameInput instanceof HTMLInputElement) nameInput.value = '';
  };

  if (groups && groups.length === 0) {
    return (
      <section aria-labelledby="create-pool-title" className="panel">
        <h2 id="create-pool-title">Create a pool</h2>
        <Alert error={error} />
        <p>
          A pool is made of your nodes of one chain: <Link to="/nodes">create some nodes</Link> first (two or more of one chain, for failover).
        </p>
      </section>
    );
  }

  return (
    <section aria-labelledby="create-pool-title" className="panel">
      <h2 id="create-pool-title">Create a pool</h2>
      <Alert error={error} />
      {created && (
        <p role="status" className="status">
          Pool <Link to={`/pools/${created.id}`}>{created.name}</Link> is created. Open its page now for its password, which is shown once.
        </p>
      )}
      <form onSubmit={(event) => void create(event)} className="form">
        <label htmlFor={ids.chain}>Chain</label>
        <select id={ids.chain} name="chain" value={groupKey} onChange={(event) => choose(event.target.value)} required>
          {(groups ?? []).map((each) => (
            <option key={each.key} value={each.key}>
              {each.label} ({each.nodes.length} {each.nodes.length === 1 ? 'node' : 'nodes'})
            </option>
          ))}
        </select>
        <fieldset className="choice" id={ids.members} data-testid="pool-members-choice">
          <legend>Members</legend>
          <p className="hint">
            Calls go to a member that runs, is not syncing and is within the lag bound below; a read that fails on one is tried once on another.
          </p>
          <MemberChoices idPrefix={ids.members} nodes={group?.nodes ?? []} chosen={chosen} onChange={setChosen} />
        </fieldset>
        <label htmlFor={ids.name}>Name</label>
        <input id={ids.name} name="name" type="text" required {...inputLimits(limits.name)} autoComplete="off" aria-describedby={ids.nameHint} />
        <p id={ids.nameHint} className="hint">
          Your label for it: up to {limits.name.maxLength} characters.
        </p>
        <label htmlFor={ids.lag}>Largest lag, in blocks</label>
        <input
          id={ids.lag}
          name="maxLagBlocks"
          type="number"
          required
          defaultValue={DEFAULT_MAX_LAG_BLOCKS}
          step={1}
          {...inputLimits(limits.maxLagBlocks)}
          aria-describedby={ids.lagHint}
        />
        <p id={ids.lagHint} className="hint">
          A member further than this behind the best member’s head gets no calls until it catches up.
        </p>
        <button type="submit" className="button-primary" disabled={busy || chosen.size === 0}>
          Create the pool
        </button>
      </form>
    </section>
  );
}
