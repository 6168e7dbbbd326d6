import type { Node } from '@cloud/sdk/browser';
import { useId, useState } from 'react';
import { useConsole } from '../context';
import type { NewCredential } from '../credentials';
import { devLines } from '../ready';
import { ReadyLines } from './ReadyLines';

/**
 * On a dev node only: the lines that fund an address and mine, with the node's own dev methods
 * (anvil_setBalance and evm_mine, or regtest's generatetoaddress), which the proxy allows on dev
 * nodes and refuses on every other. The console has no secret of the node to call them itself:
 * the person runs them, with a credential they hold.
 */
export function DevChain({ node, secret, user }: { node: Node; secret: NewCredential | undefined; user: string | undefined }) {
  const { config } = useConsole();
  const [address, setAddress] = useState('');
  const ids = { address: useId(), hint: useId() };
  if (!node.dev) return null;
  const eth = node.image === 'eth';
  const lines = devLines(node, config.proxyCaFile, address, secret, user);
  return (
    <section aria-labelledby="dev-title" className="panel" data-testid="dev-chain">
      <h2 id="dev-title">Fund an address: dev chain only</h2>
      <p>
        This node runs a private dev chain, mined here: its coins are worth nothing, and you may make them. These lines call the node’s own{' '}
        {eth ? 'anvil methods (anvil_setBalance, evm_mine)' : 'regtest method generatetoaddress'}, which the platform allows on dev nodes only. A node on a real
        network refuses them.
      </p>
      <div className="form">
        <label htmlFor={ids.address}>Address to fund</label>
        <input
          id={ids.address}
          type="text"
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          placeholder={eth ? '0x…' : undefined}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={ids.hint}
        />
        <p id={ids.hint} className="hint">
          {eth
            ? 'It gets 100 ether, then a block is mined. cast takes no Basic credential: the lines use a URL token’s address (create one under Credentials; its address fills in here while it is shown).'
            : 'It gets the rewards of 101 new blocks (a coinbase can be spent after 100 more). The line uses a Basic credential: put its password where it says <password>, or create one under Credentials.'}
        </p>
      </div>
      <ReadyLines lines={lines} title="Dev chain only: fund and mine" testId="dev-lines" />
    </section>
  );
}
