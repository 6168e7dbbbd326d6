import { LIMITS, type ChainOption, type Node } from '@cloud/sdk/browser';
import { useId, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useApi, useConsole } from '../context';
import { useChoices, useCreation } from '../list-page';
import { Alert } from './Alert';

/** Whether nodes of the option can keep a transaction index: Bitcoin family, not pruned. */
function offersTxindex(option: ChainOption | undefined): boolean {
  return !!option && option.chain !== 'eth' && !option.pruned;
}

/**
 * The nodes page's create form: the chains to choose from, a name and the options; then which node
 * is starting. A Basic node's password, in the create answer only, is kept in memory for the
 * node's page to show once.
 */
export function CreateNode({ onCreated }: { onCreated: (node: Node) => void }) {
  const { client } = useConsole();
  const { error, run } = useApi();
  const {
    busy,
    created,
    create: createWith,
  } = useCreation(run, onCreated, (node: Node) =>
    node.nodeUser && node.nodePass ? { id: node.id, secret: { user: node.nodeUser, password: node.nodePass } } : undefined,
  );
  const [chains, image, setImage] = useChoices(
    run,
    (client) => client.nodes.chains(),
    (chain) => chain.image,
  );
  const ids = { image: useId(), name: useId(), nameHint: useId(), large: useId(), jwt: useId(), txindex: useId(), imageHint: useId() };

  const option = chains.find((chain) => chain.image === image);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const name = String(form.get('name') ?? '').trim();
    const node = await createWith(() =>
      client.nodes.create({
        image: image as ChainOption['image'],
        ...(name ? { name } : {}),
        large: form.get('large') === 'on',
        jwt: form.get('jwt') === 'on',
        ...(offersTxindex(option) ? { txindex: form.get('txindex') === 'on' } : {}),
      }),
    );
    if (!node) return;
    // The next node is another: its name starts empty.
    const nameInput = formElement.elements.namedItem('name');
    if (nameInput instanceof HTMLInputElement) nameInput.value = '';
  };

  return (
    <section aria-labelledby="create-title" className="panel">
      <h2 id="create-title">Create a node</h2>
      <Alert error={error} />
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
        <input
          id={ids.name}
          name="name"
          type="text"
          maxLength={LIMITS.nodes.CreateNodeRequest.name.maxLength}
          autoComplete="off"
          aria-describedby={ids.nameHint}
        />
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
  );
}
