import type { DeliveryAttempt, Stream } from '@cloud/sdk/browser';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Alert, Status } from '../components/Alert';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CopyButton } from '../components/CopyButton';
import { Deliveries } from '../components/Deliveries';
import { Gone } from '../components/Gone';
import { StreamSecret } from '../components/StreamSecret';
import { useApi, useConsole } from '../context';
import { usePolledDetail } from '../detail-page';
import { useBackToList } from '../list-page';
import { attemptWords, streamStateWords } from '../stream-words';
import { usePageTitle } from '../title';

/** How often the stream and its log are read again. */
const POLL_MS = 3000;

export function StreamPage() {
  const { id } = useParams();
  return <StreamScreen key={id} id={id!} />;
}

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

function StreamScreen({ id }: { id: string }) {
  const { client } = useConsole();
  const read = async (): Promise<{ stream: Stream; attempts: DeliveryAttempt[] }> => {
    const [stream, attempts] = await Promise.all([client.streams.get(id), client.streams.deliveries(id, 50)]);
    return { stream, attempts };
  };
  const { thing, setThing, gone, error } = usePolledDetail(read, POLL_MS);
  const stream = thing?.stream;
  usePageTitle(stream ? `Stream ${stream.name}` : `Stream ${id}`);
  const backToList = useBackToList();
  const action = useApi();
  const [said, say] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [tested, setTested] = useState<DeliveryAttempt | null>(null);
  const [confirming, setConfirming] = useState<'delete' | 'rotate' | null>(null);

  /** Runs a change and shows the stream it answers at once. */
  const change = async (call: () => Promise<Stream>, words: (stream: Stream) => string) => {
    setBusy(true);
    const result = await action.run(call);
    setBusy(false);
    if (!result.ok) return undefined;
    const { secret: shown, ...fresh } = result.value;
    setThing((current) => (current ? { ...current, stream: fresh } : current));
    say(words(fresh));
    return shown;
  };
  const rotate = async () => {
    setConfirming(null);
    const shown = await change(
      () => client.streams.rotateSecret(id),
      () => 'The signing secret is replaced: deliveries from now on are signed with the new one.',
    );
    if (shown) setSecret(shown);
  };
  const test = async () => {
    setBusy(true);
    setTested(null);
    const result = await action.run(() => client.streams.test(id));
    setBusy(false);
    if (result.ok) {
      setTested(result.value);
      say(`Test delivery: ${attemptWords(result.value)}.`);
    }
  };
  const replay = async () => {
    setBusy(true);
    const result = await action.run(() => client.streams.replay(id));
    setBusy(false);
    if (result.ok) say(`${result.value.replayed} dead letters are queued again, after what is pending.`);
  };
  const remove = async () => {
    setConfirming(null);
    const result = await action.run(() => client.streams.remove(id));
    if (result.ok) backToList('/streams', `Stream ${stream?.name ?? id} is deleted: nothing more is delivered.`);
  };

  if (gone) {
    return (
      <Gone title={`Stream ${id}`} list={{ to: '/streams', label: 'All streams' }}>
        There is no such stream of yours: it was deleted (or its node was), or the link is wrong.
      </Gone>
    );
  }

  return (
    <>
      <p className="crumbs">
        <Link to="/streams">Streams</Link> / {stream?.name ?? <span className="mono node-id-full">{id}</span>}
      </p>
      <h1>{stream?.name ?? <span className="mono node-id-full">Stream {id}</span>}</h1>
      <p className="node-ident">
        <span className="muted">Id</span>{' '}
        <code className="node-id-full" id="stream-id" data-testid="stream-id">
          {id}
        </code>{' '}
        <CopyButton text={id} label="Copy the stream's id" selectId="stream-id" />
      </p>
      <Alert error={error} />
      <Alert error={action.error} />
      <Status message={said} />
      {secret && <StreamSecret secret={secret} onHide={() => setSecret(null)} />}
      {stream && (
        <>
          <section aria-labelledby="summary-title" className="panel">
            <h2 id="summary-title">Status</h2>
            <dl className="facts">
              <dt>State</dt>
              <dd data-testid="stream-state">{streamStateWords(stream)}</dd>
              <dt>Follows</dt>
              <dd>
                <Link to={stream.nodeId.startsWith('pool-') ? `/pools/${stream.nodeId}` : `/nodes/${stream.nodeId}`} className="mono">
                  {stream.nodeId}
                </Link>
              </dd>
              <dt>Kind</dt>
              <dd>{stream.kind}</dd>
              <dt>URL</dt>
              <dd className="mono wrap">{stream.url}</dd>
              {stream.kind === 'transactions' && (
                <>
                  <dt>Addresses</dt>
                  <dd className="mono wrap">{stream.addresses.join(', ')}</dd>
                  <dt>Topics</dt>
                  <dd className="mono wrap">{stream.topics.length ? stream.topics.join(', ') : 'any'}</dd>
                </>
              )}
              <dt>From block</dt>
              <dd>{stream.fromHeight ?? 'the head when it started'}</dd>
              <dt>Cursor</dt>
              <dd data-testid="stream-cursor">
                {stream.cursor ? (
                  <>
                    block {stream.cursor.height} <span className="mono wrap">{stream.cursor.hash}</span>
                  </>
                ) : (
                  'not scanned yet'
                )}
              </dd>
              <dt>Pending events</dt>
              <dd data-testid="stream-pending">{stream.pendingEvents}</dd>
              <dt>Dead letters</dt>
              <dd data-testid="stream-dead">{stream.deadLetters}</dd>
              {stream.failing && (
                <>
                  <dt>Failing since</dt>
                  <dd>
                    {when(stream.failing.since)}, {stream.failing.attempts} attempts
                  </dd>
                  <dt>Next attempt</dt>
                  <dd>{when(stream.failing.nextAttemptAt)}</dd>
                  <dt>Last error</dt>
                  <dd className="wrap">{stream.failing.lastError ?? '—'}</dd>
                </>
              )}
              <dt>Created</dt>
              <dd>{when(stream.createdAt)}</dd>
            </dl>
            <div className="actions">
              {stream.state === 'active' ? (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() =>
                    void change(
                      () => client.streams.pause(id),
                      () => 'Paused: nothing is scanned or delivered until you resume.',
                    )
                  }
                >
                  Pause
                </button>
              ) : (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() =>
                    void change(
                      () => client.streams.resume(id),
                      () => 'Resumed: it goes on where it stopped.',
                    )
                  }
                >
                  Resume
                </button>
              )}
              <button type="button" disabled={busy} onClick={() => void test()}>
                Send a test delivery
              </button>
              <button type="button" disabled={busy} onClick={() => setConfirming('rotate')}>
                Rotate the secret
              </button>
              <button type="button" disabled={busy || stream.deadLetters === 0} onClick={() => void replay()}>
                Replay dead letters
              </button>
              <button type="button" className="button-danger" onClick={() => setConfirming('delete')}>
                Delete
              </button>
            </div>
            {tested && (
              <p data-testid="stream-test-result">
                Test delivery: {tested.outcome}, status {tested.statusCode ?? 'none'}, {tested.latencyMs} ms{tested.error ? `, ${tested.error}` : ''}.
              </p>
            )}
          </section>
          <Deliveries attempts={thing.attempts} />
        </>
      )}
      <ConfirmDialog
        open={confirming === 'rotate'}
        title="Rotate the signing secret?"
        confirmLabel="Rotate the secret"
        onCancel={() => setConfirming(null)}
        onConfirm={() => void rotate()}
      >
        <p>Deliveries are signed with a new secret from now on, shown once here; signatures made with the old one stop matching.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === 'delete'}
        title="Delete this stream?"
        confirmLabel="Delete the stream"
        danger
        onCancel={() => setConfirming(null)}
        onConfirm={() => void remove()}
      >
        <p>
          Stream <code>{id}</code> stops: nothing more is delivered, pending events and dead letters included. Its node is not touched.
        </p>
      </ConfirmDialog>
    </>
  );
}
