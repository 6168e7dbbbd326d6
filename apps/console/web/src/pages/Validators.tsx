import type { Validator } from '@cloud/sdk/browser';
import { Link } from 'react-router';
import { Alert, Status } from '../components/Alert';
import { CreateValidator } from '../components/CreateValidator';
import { ListTable, type Column } from '../components/ListTable';
import { StateBadge } from '../components/NodeState';
import { RegistrationStatus } from '../components/Registration';
import { useConsole } from '../context';
import { useMessageForList, usePolledList } from '../list-page';
import { usePageTitle } from '../title';

const validatorKey = (validator: Validator) => validator.nodeId;

const VALIDATOR_COLUMNS: Column<Validator>[] = [
  { header: 'Validator', className: 'mono', cell: (validator) => <Link to={`/validators/${validator.network}/${validator.nodeId}`}>{validator.nodeId}</Link> },
  { header: 'NodeID', className: 'mono', cell: (validator) => validator.chainNodeId },
  { header: 'Network', cell: (validator) => validator.networkLabel },
  { header: 'Node', cell: (validator) => <StateBadge state={validator.state} /> },
  { header: 'Registration', cell: (validator) => <RegistrationStatus registration={validator.registration} /> },
];

export function ValidatorsPage() {
  usePageTitle('Validators');
  const { client } = useConsole();
  const list = usePolledList(() => client.staking.listAll(), 5000, validatorKey);
  const said = useMessageForList();
  return (
    <>
      <h1>Validators</h1>
      <p>
        An Avalanche validator node: the platform makes its staking key, so its NodeID is known at once. Registering it on the P-chain is yours to do from your
        wallet (stake, period, reward address), and cannot be undone.
      </p>
      <Status message={said} />
      <CreateValidator onCreated={list.put} />
      <section aria-labelledby="validators-title">
        <h2 id="validators-title">Your validators</h2>
        <Alert error={list.error} />
        <ListTable
          label="Validators"
          rows={list.items}
          columns={VALIDATOR_COLUMNS}
          rowKey={validatorKey}
          rowData={(validator) => ({ 'data-validator-id': validator.nodeId })}
          empty="No validators yet."
        />
      </section>
    </>
  );
}
