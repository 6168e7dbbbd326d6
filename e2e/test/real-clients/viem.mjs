// viem, as a user's program: the URL token address the API printed, in `http(url)`. viem's http
// transport calls fetch, which takes no CA option; Node.js's fetch trusts the dev proxy's CA when
// the process starts with NODE_EXTRA_CA_CERTS=<dev CA>, as the platform's ready line says for
// Node.js, so the suite runs this file so and keeps the https:// address as printed.
// Input: {url}. Reads the block number, funds a fresh account (viem's test client: anvil_setBalance),
// sends a signed transaction with a wallet client and prints what it saw, as one JSON line.
import { createPublicClient, createTestClient, createWalletClient, defineChain, http, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

const { url } = JSON.parse(process.argv[2]);
const publicClient = createPublicClient({ transport: http(url) });
const blockNumber = await publicClient.getBlockNumber();
const chainId = await publicClient.getChainId();
const chain = defineChain({
  id: chainId,
  name: 'dev node',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [url] } },
});

const account = privateKeyToAccount(generatePrivateKey());
const to = privateKeyToAccount(generatePrivateKey()).address;
await createTestClient({ mode: 'anvil', chain, transport: http(url) }).setBalance({ address: account.address, value: parseEther('5') });
const walletClient = createWalletClient({ account, chain, transport: http(url) });
const hash = await walletClient.sendTransaction({ to, value: parseEther('0.75') });
const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 60_000 });

// A method the platform refuses: viem's error class for it.
const refused = await publicClient.request({ method: 'anvil_dumpState', params: [] }).then(
  () => undefined,
  (error) => ({ name: error.name, code: error.code, details: error.details }),
);

console.log(
  JSON.stringify({
    blockNumber: blockNumber.toString(),
    chainId,
    account: account.address,
    to,
    hash,
    receipt: { status: receipt.status, blockNumber: receipt.blockNumber.toString(), from: receipt.from, to: receipt.to },
    balanceTo: (await publicClient.getBalance({ address: to })).toString(),
    balanceFrom: (await publicClient.getBalance({ address: account.address })).toString(),
    refused,
  }),
);
