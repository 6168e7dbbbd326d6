import { LIMITS, type ChainOption, type Node } from '@cloud/sdk/browser';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { Alert, Status } from '../components/Alert';
import { StateBadge, SyncProgress } from '../components/NodeState';
import { useApi, useConsole } from '../context';
import { usePolling } from '../polling';
import { usePageTitle } from '../title';
import { TableWrap } from '../components/TableWrap';

/** How often the list is read again, so states and sync progress move without a reload. */
const POLL_MS = 3000;

/** Whether nodes of the option can keep a transaction index: Bitcoin family, not pruned. */
function offersTxindex(option: ChainOption | undefined): boolean {
  return !!option && option.chain !== 'eth' && !option.pruned;
}

export function NodesPage() {
  usePageTitle('Nodes');
  const { client, shownOnce } = useConsole();
  const location = useLocation();
  const listApi = useApi();
  const createApi = useApi();
  const [nodes, setNodes] = useState<Node[] | null>(null);
  const [chains, setChains] = useState<ChainOption[]>([]);
  const [image, setImage] = useState('');
  const [created, setCreated] = useState<Node | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { image: useId(), name: useId(), nameHint: useId(), large: useId(), jwt: useId(), txindex: useId(), imageHint: useId() };
  const { run: runCreate } = createApi;

  usePolling(
    async () => {
      const result = await listApi.run(() => client.nodes.list());
      if (result.ok) setNodes(result.value);
    },
    POLL_MS,
    client,
  );

  useEffect(() => {
    void runCreate(() => client.nodes.chains()).then((result) => {
      if (!result.ok) return;
      setChains(result.value);
      setImage((current) => current || result.value[0]?.image || '');
    });
  }, [client, runCreate]);

  const option = chains.find((chain) => chain.image === image);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const name = String(form.get('name') ?? '').trim();
    setBusy(true);
    setCreated(null);
    const result = await createApi.run(() =>
      client.nodes.create({
        image: image as ChainOption['image'],
        ...(name ? { name } : {}),
        large: form.get('large') === 'on',
        jwt: form.get('jwt') === 'on',
        ...(offersTxindex(option) ? { txindex: form.get('txindex') === 'on' } : {}),
      }),
    );
    setBusy(false);
    if (!result.ok) return;
    const node = result.value;
    // The next node is another: its name starts empty.
    const nameInput = formElement.elements.namedItem('name');
    if (nameInput instanceof HTMLInputElement) nameInput.value = '';
    // The password is in this answer only: kept in memory for the node's page to show once.
    if (node.nodeUser && node.nodePass) shownOnce.set(node.id, { user: node.nodeUser, password: node.nodePass });
    setCreated(node);
    setNodes((current) => (current ? [...current.filter((known) => known.id !== node.id), node] : [node]));
  };

  const said = (location.state as { message?: string } | null)?.message ?? null;
  return (
    <>
      <h1>Nodes</h1>
      <Status message={said} />
      <section aria-labelledby="nodes-title">
        <h2 id="nodes-title">Your nodes</h2>
        <Alert error={listApi.error} />
        {nodes && nodes.length === 0 && <p>No nodes yet: create one below.</p>}
        {nodes && nodes.length > 0 && (
          <TableWrap label="Nodes">
            <table className="nodes-table">
              <thead>
                <tr>
                  <th scope="col">Node</th>
                  <th scope="col">Chain</th>
                  <th scope="col">State</th>
                  <th scope="col">Sync</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {nodes.map((node) => (
                  <tr key={node.id} data-node-id={node.id}>
                    <td className="node-cell">
                      {node.name === null ? (
                        <Link to={`/nodes/${node.id}`} className="mono node-id" title={node.id}>
                          {node.id}
                        </Link>
                      ) : (
                        <>
                          <Link to={`/nodes/${node.id}`} className="node-name">
                            {node.name}
                          </Link>
                          <br />
                          <span className="mono node-id muted" title={node.id}>
                            {node.id}
                          </span>
                        </>
                      )}
                    </td>
                    <td>
                      {node.image} · {node.networkLabel}
                      {node.jwt && <span className="tag">jwt</span>}
                    </td>
                    <td>
                      <StateBadge state={node.state} />
                    </td>
                    <td>
                      <SyncProgress node={node} label={`Sync of ${node.id}`} />
                    </td>
                    <td>{new Date(node.createdAt).toLocaleString()}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>
      <section aria-labelledby="create-title" className="panel">
        <h2 id="create-title">Create a node</h2>
        <Alert error={createApi.error} />
        {created && (
          <p role="status" className="status">
            Node <Link to={`/nodes/${created.id}`}>{created.name ?? created.id}</Link> is starting.{' '}
            {created.nodePass ? 'Open its page now for its password, which is shown once.' : 'It takes your client access token (jwt).'}
          </p>
        )}
        <form onSubmit={(event) => void create(event)} className="form">
          <label htmlFor={ids.image}>Chain</label>
          <select id={ids.image} name="image" value={image} onChange={(event) => setImage(event.target.value)} aria-describedby={ids.imageHint} required>
            {chains.map((chain) => (
              <option key={chain.image} value={chain.image}>
                {chain.image}: {chain.networkLabel}, {chain.software}
              </option>
            ))}
          </select>
          <p id={ids.imageHint} className="hint">
            {option
              ? `Runs ${option.software} on ${option.networkLabel}${option.dev ? ': a private chain mined here, its coins worth nothing' : ''}.`
              : 'Loading the chains…'}
          </p>
          <label htmlFor={ids.name}>Name (optional)</label>
          <input id={ids.name} name="name" type="text" maxLength={LIMITS.nodes.CreateNodeRequest.name.maxLength} autoComplete="off" aria-describedby={ids.nameHint} />
          <p id={ids.nameHint} className="hint">
            Your label for it, shown in this list: up to {LIMITS.nodes.CreateNodeRequest.name.maxLength} characters; it can be changed later.
          </p>
          <div className="check">
            <input id={ids.large} name="large" type="checkbox" />
            <label htmlFor={ids.large}>Large (more CPU and memory)</label>
          </div>
          <div className="check">
            <input id={ids.jwt} name="jwt" type="checkbox" />
            <label htmlFor={ids.jwt}>JWT: calls carry your client access token instead of a password</label>
          </div>
          {offersTxindex(option) && (
            <div className="check">
              <input id={ids.txindex} name="txindex" type="checkbox" />
              <label htmlFor={ids.txindex}>Transaction index (getrawtransaction finds any transaction)</label>
            </div>
          )}
          <button type="submit" className="button-primary" disabled={busy || !image}>
            Create the node
          </button>
        </form>
      </section>
    </>
  );
}
