import type { StakingLimits, Validator } from '@cloud/sdk/browser';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { useApi, useConsole } from '../context';
import { useChoices, useCreation } from '../list-page';
import { Alert } from './Alert';
import { CopyableCode } from './Copyable';

/**
 * The validators page's create form: the network (Fuji first) and its staking limits; then the
 * NodeID of the validator just made, to register on the P-chain. Its node password, in the create
 * answer only, is kept in memory for the validator's page to show once.
 */
export function CreateValidator({ onCreated }: { onCreated: (validator: Validator) => void }) {
  const { client } = useConsole();
  const { error, run } = useApi();
  const {
    busy,
    created,
    create: createWith,
  } = useCreation(run, onCreated, (validator: Validator) =>
    validator.nodePass ? { id: validator.nodeId, secret: { user: validator.nodeUser, password: validator.nodePass } } : undefined,
  );
  const [networks, network, setNetwork] = useChoices(
    run,
    (client) => client.staking.networks(),
    (option) => option.network,
    (options) => options.find((option) => option.network === 'fuji') ?? options[0],
  );
  const [limits, setLimits] = useState<StakingLimits | null>(null);
  const networkId = useId();

  useEffect(() => {
    if (!network) return;
    setLimits(null);
    void run(() => client.staking.limits(network)).then((result) => result.ok && setLimits(result.value));
  }, [client, network, run]);

  return (
    <section aria-labelledby="new-validator-title" className="panel">
      <h2 id="new-validator-title">Create a validator</h2>
      <Alert error={error} />
      <div className="toolbar">
        <label htmlFor={networkId}>Network</label>
        <select id={networkId} value={network} onChange={(event) => setNetwork(event.target.value)}>
          {networks.map((option) => (
            <option key={option.network} value={option.network}>
              {option.chain} {option.network}
            </option>
          ))}
        </select>
      </div>
      {limits && (
        <dl className="facts" aria-label={`Staking limits on ${limits.network}`}>
          <dt>Minimum stake</dt>
          <dd>{limits.minimumStake.text}</dd>
          <dt>Shortest staking period</dt>
          <dd>{limits.minimumStakeDuration.text}</dd>
          <dt>Longest staking period</dt>
          <dd>{limits.maximumStakeDuration.text}</dd>
          <dt>Maximum weight</dt>
          <dd>{limits.maximumWeight.text}</dd>
        </dl>
      )}
      <button type="button" className="button-primary" onClick={() => void createWith(() => client.staking.create(network))} disabled={busy || !network}>
        Create a validator on {network || '…'}
      </button>
      {created && (
        <div role="status" className="status created">
          <p>
            Validator <Link to={`/validators/${created.network}/${created.nodeId}`}>{created.nodeId}</Link> is starting. Its NodeID to register on the P-chain:
          </p>
          <p>
            <CopyableCode text={created.chainNodeId} label="Copy the NodeID" testId="new-chain-node-id" />
          </p>
          {created.nodePass && <p>Open its page now for its node password, which is shown once.</p>}
        </div>
      )}
    </section>
  );
}
