import type { StakingLimits, StakingNetwork, Validator } from '@cloud/sdk/browser';
import { useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Alert, Status } from '../components/Alert';
import { CopyableCode } from '../components/Copyable';
import { StateBadge } from '../components/NodeState';
import { RegistrationStatus } from '../components/Registration';
import { useApi, useConsole } from '../context';
import { usePolling } from '../polling';
import { usePageTitle } from '../title';
import { TableWrap } from '../components/TableWrap';

export function ValidatorsPage() {
  usePageTitle('Validators');
  const { client, shownOnce } = useConsole();
  const location = useLocation();
  const listApi = useApi();
  const api = useApi();
  const [networks, setNetworks] = useState<StakingNetwork[]>([]);
  const [network, setNetwork] = useState('');
  const [limits, setLimits] = useState<StakingLimits | null>(null);
  const [validators, setValidators] = useState<Validator[] | null>(null);
  const [created, setCreated] = useState<Validator | null>(null);
  const [busy, setBusy] = useState(false);
  const networkId = useId();
  const { run } = api;

  useEffect(() => {
    void run(() => client.staking.networks()).then((result) => {
      if (!result.ok) return;
      setNetworks(result.value);
      setNetwork((current) => current || (result.value.find((option) => option.network === 'fuji') ?? result.value[0])?.network || '');
    });
  }, [client, run]);

  useEffect(() => {
    if (!network) return;
    setLimits(null);
    void run(() => client.staking.limits(network)).then((result) => result.ok && setLimits(result.value));
  }, [client, network, run]);

  usePolling(
    async () => {
      const result = await listApi.run(() => client.staking.listAll());
      if (result.ok) setValidators(result.value);
    },
    5000,
    client,
  );

  const create = async () => {
    setBusy(true);
    setCreated(null);
    const result = await api.run(() => client.staking.create(network));
    setBusy(false);
    if (!result.ok) return;
    const validator = result.value;
    if (validator.nodePass) shownOnce.set(validator.nodeId, { user: validator.nodeUser, password: validator.nodePass });
    setCreated(validator);
    setValidators((current) => [...(current ?? []).filter((known) => known.nodeId !== validator.nodeId), validator]);
  };

  const said = (location.state as { message?: string } | null)?.message ?? null;
  return (
    <>
      <h1>Validators</h1>
      <p>
        An Avalanche validator node: the platform makes its staking key, so its NodeID is known at once. Registering it on the P-chain is yours to
        do from your wallet (stake, period, reward address), and cannot be undone.
      </p>
      <Status message={said} />
      <section aria-labelledby="new-validator-title" className="panel">
        <h2 id="new-validator-title">Create a validator</h2>
        <Alert error={api.error} />
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
        <button type="button" className="button-primary" onClick={() => void create()} disabled={busy || !network}>
          Create a validator on {network || '…'}
        </button>
        {created && (
          <div role="status" className="status created">
            <p>
              Validator <Link to={`/validators/${created.network}/${created.nodeId}`}>{created.nodeId}</Link> is starting. Its NodeID to register on the
              P-chain:
            </p>
            <p>
              <CopyableCode text={created.chainNodeId} label="Copy the NodeID" testId="new-chain-node-id" />
            </p>
            {created.nodePass && <p>Open its page now for its node password, which is shown once.</p>}
          </div>
        )}
      </section>
      <section aria-labelledby="validators-title">
        <h2 id="validators-title">Your validators</h2>
        <Alert error={listApi.error} />
        {validators && validators.length === 0 && <p>No validators yet.</p>}
        {validators && validators.length > 0 && (
          <TableWrap label="Validators">
            <table>
              <thead>
                <tr>
                  <th scope="col">Validator</th>
                  <th scope="col">NodeID</th>
                  <th scope="col">Network</th>
                  <th scope="col">Node</th>
                  <th scope="col">Registration</th>
                </tr>
              </thead>
              <tbody>
                {validators.map((validator) => (
                  <tr key={validator.nodeId} data-validator-id={validator.nodeId}>
                    <td className="mono">
                      <Link to={`/validators/${validator.network}/${validator.nodeId}`}>{validator.nodeId}</Link>
                    </td>
                    <td className="mono">{validator.chainNodeId}</td>
                    <td>{validator.networkLabel}</td>
                    <td>
                      <StateBadge state={validator.state} />
                    </td>
                    <td>
                      <RegistrationStatus registration={validator.registration} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>
    </>
  );
}
