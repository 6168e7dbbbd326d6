import { useEffect, useRef, useState } from 'react';
import { useApi } from '../context';
import { usePolling } from '../polling';
import { Alert } from './Alert';

/** The tail of a node's log, read again every 10 s and on request. */
export function Logs({ read }: { read: () => Promise<string[]> }) {
  const { error, run } = useApi();
  const [lines, setLines] = useState<string[] | null>(null);
  const [round, setRound] = useState(0);
  const box = useRef<HTMLPreElement>(null);
  // A tail: the newest line in view, as `tail -f` shows it.
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [lines]);
  usePolling(
    async () => {
      const result = await run(read);
      if (result.ok) setLines(result.value);
    },
    10_000,
    round,
  );
  return (
    <section aria-labelledby="logs-title" className="panel">
      <h2 id="logs-title">Log</h2>
      <Alert error={error} />
      <p>
        <button type="button" onClick={() => setRound(round + 1)}>
          Read the log again
        </button>
      </p>
      <pre ref={box} className="logs" tabIndex={0} aria-label="The node's last log lines">
        {lines === null ? 'Reading…' : lines.length === 0 ? 'The log is empty.' : lines.join('\n')}
      </pre>
    </section>
  );
}
