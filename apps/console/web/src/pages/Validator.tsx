import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Alert } from '../components/Alert';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CopyableCode } from '../components/Copyable';
import { Endpoints } from '../components/Endpoints';
import { Gone } from '../components/Gone';
import { StateBadge } from '../components/NodeState';
import { ReadyLines } from '../components/ReadyLines';
import { ShownOnce } from '../components/ShownOnce';
import { RegistrationFacts, RegistrationStatus } from '../components/Registration';
import { useApi, useConsole } from '../context';
import { usePolledDetail, useShownOnce } from '../detail-page';
import { useBackToList } from '../list-page';
import { linesFor, placeholderLines } from '../ready';
import { usePageTitle } from '../title';

export function ValidatorPage() {
  const { network, nodeId } = useParams();
  return <ValidatorScreen key={`${network}/${nodeId}`} network={network!} nodeId={nodeId!} />;
}

function ValidatorScreen({ network, nodeId }: { network: string; nodeId: string }) {
  usePageTitle(`Validator ${nodeId}`);
  const { client, config } = useConsole();
  const backToList = useBackToList();
  const { thing: validator, gone, error } = usePolledDetail(() => client.staking.get(network, nodeId), 5000);
  const removeApi = useApi();
  const [confirming, setConfirming] = useState(false);
  const created = useShownOnce(nodeId);
  const [secret, setSecret] = useState(created);

  const remove = async () => {
    setConfirming(false);
    // Refused (Conflict) while its stake is locked on the P-chain: the API's words say so.
    const result = await removeApi.run(() => client.staking.remove(network, nodeId));
    if (result.ok) backToList('/validators', `Validator ${nodeId} is being deleted.`);
  };

  if (gone) {
    return (
      <Gone title={`Validator ${nodeId}`} list={{ to: '/validators', label: 'All validators' }}>
        There is no such validator of yours on {network}: it was deleted, or the link is wrong.
      </Gone>
    );
  }

  return (
    <>
      <p className="crumbs">
        <Link to="/validators">Validators</Link> / <span className="mono">{nodeId}</span>
      </p>
      <h1>
        Validator <span className="mono">{nodeId}</span>
      </h1>
      <Alert error={error} />
      <Alert error={removeApi.error} />
      {validator && (
        <>
          <section aria-labelledby="validator-title" className="panel">
            <h2 id="validator-title">On the P-chain</h2>
            <dl className="facts">
              <dt>NodeID</dt>
              <dd>
                <CopyableCode text={validator.chainNodeId} label="Copy the NodeID" testId="chain-node-id" />
              </dd>
              <dt>Registration</dt>
              <dd data-testid="registration">
                <RegistrationStatus registration={validator.registration} />
              </dd>
              <RegistrationFacts registration={validator.registration} />
              <dt>Network</dt>
              <dd data-testid="validator-network">{validator.networkLabel}</dd>
              <dt>Node</dt>
              <dd data-testid="validator-state">
                <StateBadge state={validator.state} />
                {validator.stateReason && <span className="reason"> {validator.stateReason}</span>}
              </dd>
            </dl>
            <div className="actions">
              <button type="button" className="button-danger" onClick={() => setConfirming(true)} disabled={validator.state === 'deleting'}>
                Remove
              </button>
            </div>
          </section>
          <Endpoints endpoints={validator.endpoints} jwt={false} ca={config} />
          <section aria-labelledby="call-title" className={secret ? 'panel panel-secret' : 'panel'}>
            <h2 id="call-title">Call it</h2>
            {secret ? (
              <ShownOnce
                name={{ label: 'User', value: secret.user, testId: 'node-user' }}
                secret={{ label: 'Password', value: secret.password, testId: 'node-password' }}
              />
            ) : (
              <p>Its password was shown once, when the validator was created: put it where the lines say &lt;password&gt;.</p>
            )}
            <ReadyLines
              lines={
                secret
                  ? linesFor({ ...validator, jwt: false }, config.proxyCaFile, {
                      id: '',
                      name: 'default',
                      kind: 'basic',
                      nodeUser: secret.user,
                      nodePass: secret.password,
                      createdAt: '',
                    })
                  : placeholderLines({ ...validator, jwt: false }, config.proxyCaFile)
              }
              title="Ready lines"
              testId="ready-lines"
            />
            {secret && (
              <button type="button" onClick={() => setSecret(undefined)}>
                I have copied it: hide the password
              </button>
            )}
          </section>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title="Remove this validator?"
        confirmLabel="Remove the validator"
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => void remove()}
      >
        <p>
          Its node stops and its staking key is deleted. The platform refuses while its stake is locked on the P-chain (until the end of its staking period).
        </p>
      </ConfirmDialog>
    </>
  );
}
