import { shareOneProxyPlatform } from './shared-platform';
import './on-one-platform/access-rules';
import './on-one-platform/avalanche';
import './on-one-platform/bitcoin';
import './on-one-platform/bounds';
import './on-one-platform/dev-layer';
import './on-one-platform/logs';
import './on-one-platform/method-policy';
import './on-one-platform/node-operations';
import './on-one-platform/url-tokens';
// Last: it moves the shared clock past every client token's expiry.
import './on-one-platform/ethereum';

// The proxy in front of real nodes (anvil, litecoind, a fake avalanche node): the suites imported
// above share one platform (the accounts service, a nodes-service instance, their databases and
// bus), started once for all of them; each starts its own proxies and makes its own users and
// nodes, which its scope closes and deletes when it ends.
shareOneProxyPlatform();
