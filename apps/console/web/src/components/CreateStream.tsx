import { imageFamily, type Stream, type StreamKind } from '@cloud/sdk/browser';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useApi, useConsole } from '../context';
import { Alert } from './Alert';
import { StreamSecret } from './StreamSecret';

/** A node or pool a stream may follow: Ethereum- or Bitcoin-family, not a validator's, not being deleted. */
interface Followable {
  id: string;
  label: string;
}

async function followables(client: ReturnType<typeof useConsole>['client']): Promise<Followable[]> {
  const [nodes, pools] = await Promise.all([client.nodes.list(), client.pools.list()]);
  const fits = (image: string) => imageFamily(image) !== 'avalanche';
  return [
    ...nodes
      .filter((node) => fits(node.image) && node.state !== 'deleting')
      .map((node) => ({ id: node.id, label: `Node ${node.name ?? node.id} · ${node.networkLabel}` })),
    ...pools.filter((pool) => fits(pool.image)).map((pool) => ({ id: pool.id, label: `Pool ${pool.name} · ${pool.networkLabel}` })),
  ];
}

const KIND_WORDS: Record<StreamKind, string> = {
  blocks: 'Blocks: every new block, and a reorg event when blocks are replaced',
  transactions: 'Transactions touching given addresses',
};

/** One entry a line, blanks and surrounding spaces left out. */
const lines = (text: FormDataEntryValue | null) =>
  String(text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The streams page's create form: the node or pool to follow (`nodeId` chosen first when given),
 * the kind, the URL, for transactions the addresses and topics, an optional first block and name.
 * The answer's signing secret is shown here once.
 */
export function CreateStream({ nodeId, onCreated }: { nodeId?: string; onCreated: (stream: Stream) => void }) {
  const { client } = useConsole();
  const { error, run } = useApi();
  const [choices, setChoices] = useState<Followable[] | null>(null);
  const [kind, setKind] = useState<StreamKind>('blocks');
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ stream: Stream; secret: string } | null>(null);
  const ids = {
    kind: useId(),
    node: useId(),
    url: useId(),
    urlHint: useId(),
    addresses: useId(),
    topics: useId(),
    from: useId(),
    fromHint: useId(),
    name: useId(),
  };

  useEffect(() => {
    void run(() => followables(client)).then((result) => result.ok && setChoices(result.value));
  }, [client, run]);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const fromHeight = String(form.get('fromHeight') ?? '').trim();
    const name = String(form.get('name') ?? '').trim();
    setBusy(true);
    setCreated(null);
    const result = await run(() =>
      client.streams.create({
        nodeId: String(form.get('nodeId')),
        kind,
        url: String(form.get('url') ?? '').trim(),
        ...(kind === 'transactions' ? { addresses: lines(form.get('addresses')), topics: lines(form.get('topics')) } : {}),
        ...(fromHeight ? { fromHeight: Number(fromHeight) } : {}),
        ...(name ? { name } : {}),
      }),
    );
    setBusy(false);
    if (!result.ok) return;
    const { secret, ...stream } = result.value;
    setCreated({ stream, secret: secret ?? '' });
    onCreated(stream);
  };

  return (
    <section aria-labelledby="create-stream-title" className="panel">
      <h2 id="create-stream-title">Create a stream</h2>
      {choices?.length === 0 ? (
        <p>
          A stream follows one of your Ethereum- or Bitcoin-family nodes or pools: <Link to="/nodes">create a node</Link> first.
        </p>
      ) : (
        <form onSubmit={(event) => void create(event)} className="form">
          <label htmlFor={ids.node}>Node or pool</label>
          <select id={ids.node} name="nodeId" defaultValue={nodeId} key={choices ? 'read' : 'reading'} required>
            {(choices ?? []).map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.label}
              </option>
            ))}
          </select>
          <fieldset className="choice">
            <legend>Kind</legend>
            {(['blocks', 'transactions'] as const).map((each) => (
              <div className="check" key={each}>
                <input id={`${ids.kind}-${each}`} name="kind" type="radio" value={each} checked={kind === each} onChange={() => setKind(each)} />
                <label htmlFor={`${ids.kind}-${each}`}>{KIND_WORDS[each]}</label>
              </div>
            ))}
          </fieldset>
          <label htmlFor={ids.url}>URL</label>
          <input
            id={ids.url}
            name="url"
            type="url"
            required
            maxLength={2048}
            aria-describedby={ids.urlHint}
            placeholder="https://hooks.example.com/chain-events"
          />
          <p id={ids.urlHint} className="hint">
            Deliveries are POSTed here, signed. https; private, loopback and metadata addresses are refused unless the operator allows them; redirects are not
            followed.
          </p>
          {kind === 'transactions' && (
            <>
              <label htmlFor={ids.addresses}>Addresses (one a line)</label>
              <textarea id={ids.addresses} name="addresses" rows={3} required />
              <label htmlFor={ids.topics}>Topics (eth, topic 0 of a watched contract’s logs; one a line, optional)</label>
              <textarea id={ids.topics} name="topics" rows={2} />
            </>
          )}
          <label htmlFor={ids.from}>From block (optional)</label>
          <input id={ids.from} name="fromHeight" type="number" min={0} step={1} inputMode="numeric" aria-describedby={ids.fromHint} />
          <p id={ids.fromHint} className="hint">
            Backfills from this height; empty: from the node’s head when the stream starts.
          </p>
          <label htmlFor={ids.name}>Name (optional)</label>
          <input id={ids.name} name="name" type="text" maxLength={64} autoComplete="off" />
          <button type="submit" className="button-primary" disabled={busy || !choices}>
            Create the stream
          </button>
        </form>
      )}
      <Alert error={error} />
      {created && (
        <div role="status">
          <p>
            Stream <Link to={`/streams/${created.stream.id}`}>{created.stream.name}</Link> is created.
          </p>
          <StreamSecret secret={created.secret} onHide={() => setCreated(null)} />
        </div>
      )}
    </section>
  );
}
