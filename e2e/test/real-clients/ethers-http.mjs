// ethers v6 over HTTPS, as a user's program: the URL token address the API printed, pasted into
// `new JsonRpcProvider(url)`. Run as `NODE_EXTRA_CA_CERTS=<dev CA> node ethers-http.mjs '<input>'`,
// as the platform's ready line says (Node.js trusts the dev proxy's CA only when told).
// Input: {url}. Prints one JSON line: what it did and saw.
import { JsonRpcProvider, Wallet, parseEther, toQuantity } from 'ethers';

const { url } = JSON.parse(process.argv[2]);
const provider = new JsonRpcProvider(url);
const network = await provider.getNetwork();
const startBlock = await provider.getBlockNumber();

// A fresh wallet, funded by the dev chain's anvil_setBalance through the same address.
const wallet = Wallet.createRandom().connect(provider);
const to = Wallet.createRandom().address;
await provider.send('anvil_setBalance', [wallet.address, toQuantity(parseEther('10'))]);
const funded = await provider.getBalance(wallet.address);

// A transaction signed here, sent through the proxy; anvil mines it at once.
const tx = await wallet.sendTransaction({ to, value: parseEther('1.25') });
const receipt = await tx.wait(1, 60_000);

// A method the platform refuses (it would make the node reach another host): what ethers makes of it.
const refused = await provider.send('anvil_reset', []).then(
  () => undefined,
  (error) => ({ code: error.code, shortMessage: error.shortMessage, answer: error.info?.error }),
);

const result = {
  chainId: network.chainId.toString(),
  startBlock,
  wallet: wallet.address,
  to,
  funded: funded.toString(),
  hash: tx.hash,
  receipt: { status: receipt.status, blockNumber: receipt.blockNumber, from: receipt.from, to: receipt.to, fee: receipt.fee.toString() },
  balanceTo: (await provider.getBalance(to)).toString(),
  balanceFrom: (await provider.getBalance(wallet.address)).toString(),
  refused,
};
provider.destroy();
console.log(JSON.stringify(result));
