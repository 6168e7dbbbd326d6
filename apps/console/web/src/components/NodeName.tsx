import { LIMITS, type Node } from '@cloud/sdk/browser';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useApi, useConsole } from '../context';
import { Alert } from './Alert';

const MAX_LENGTH = LIMITS.nodes.UpdateNodeRequest.name.maxLength;

/**
 * The node's name with a Rename control: a field in place of the name, saved with PATCH (an empty
 * field removes the name). `onRenamed` gets the node the API answered.
 */
export function NodeName({ node, onRenamed }: { node: Node; onRenamed: (node: Node) => void }) {
  const { client } = useConsole();
  const api = useApi();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState('');
  const inputId = useId();
  const hintId = useId();
  const renameButton = useRef<HTMLButtonElement>(null);

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    setBusy(true);
    const result = await api.run(() => client.nodes.rename(node.id, name === '' ? null : name));
    setBusy(false);
    if (!result.ok) return;
    onRenamed(result.value);
    setSaid(result.value.name === null ? 'Name removed.' : 'Name saved.');
    setEditing(false);
    // Back to the button that opened the field, for a keyboard user.
    requestAnimationFrame(() => renameButton.current?.focus());
  };

  if (!editing) {
    return (
      <>
        <span data-testid="node-name" className={node.name === null ? 'muted' : 'node-name'}>
          {node.name ?? 'none'}
        </span>{' '}
        <button
          type="button"
          className="button-small"
          ref={renameButton}
          onClick={() => {
            setSaid('');
            setEditing(true);
          }}
        >
          {node.name === null ? 'Name it' : 'Rename'}
        </button>
        <span role="status" className="copy-said">
          {said}
        </span>
      </>
    );
  }
  return (
    <form className="rename" onSubmit={(event) => void save(event)}>
      <Alert error={api.error} />
      <label htmlFor={inputId}>Node name</label>
      <input
        id={inputId}
        name="name"
        type="text"
        defaultValue={node.name ?? ''}
        maxLength={MAX_LENGTH}
        autoComplete="off"
        aria-describedby={hintId}
        // Opened by the person's own click: the field they asked for takes the focus.
        autoFocus
      />
      <span id={hintId} className="hint">
        Up to {MAX_LENGTH} characters; leave it empty to remove the name.
      </span>
      <span className="rename-actions">
        <button type="submit" className="button-small button-primary" disabled={busy}>
          Save the name
        </button>
        <button
          type="button"
          className="button-small"
          onClick={() => {
            api.setError(null);
            setEditing(false);
          }}
        >
          Cancel
        </button>
      </span>
    </form>
  );
}
