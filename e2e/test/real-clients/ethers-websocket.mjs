// ethers v6 over a WebSocket, as a user's program: the URL token's wss:// address the API
// printed, pasted into `new WebSocketProvider(url)`, subscribed to new blocks. Run with
// NODE_EXTRA_CA_CERTS=<dev CA>, as the platform's ready line says.
// Input: {url}. Mines a block with evm_mine (the dev layer) on the same socket and prints the
// block numbers the subscription saw, as one JSON line.
import { clearTimeout, setTimeout } from 'node:timers';
import { WebSocketProvider } from 'ethers';

const { url } = JSON.parse(process.argv[2]);
const provider = new WebSocketProvider(url);
const start = await provider.getBlockNumber();
const seen = [];
const arrived = new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`no block event after ${start} within 60 s (saw ${JSON.stringify(seen)})`)), 60_000);
  provider.on('block', (blockNumber) => {
    seen.push(blockNumber);
    if (blockNumber > start) {
      clearTimeout(timer);
      resolve(blockNumber);
    }
  });
});
// ethers subscribes (eth_subscribe newHeads) when the listener is added; mine once it has.
for (let tries = 0; (await provider.listenerCount('block')) === 0 && tries < 50; tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
await new Promise((resolve) => setTimeout(resolve, 500));
await provider.send('evm_mine', []);
const block = await arrived;
const latest = await provider.getBlock(block);
await provider.destroy();
console.log(JSON.stringify({ start, seen, block, hash: latest?.hash }));
