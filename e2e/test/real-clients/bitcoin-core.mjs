// The bitcoin-core npm client (v5), as a user's program: `new Client({ host, username, password })`
// with the node's Basic credentials and the address the API printed. It takes no CA option (it
// calls through `request`, on Node.js's https): run with NODE_EXTRA_CA_CERTS=<dev CA> for the
// https:// address, as the platform's ready line says for Node.js.
// Input: {host, username, password, key}. Mines a block to the address of `key` (a compressed
// public key of the developer's own) and reads its coinbase back with getrawtransaction, which
// needs the node's txindex. Prints one JSON line.
import Client from 'bitcoin-core';

const { host, username, password, key } = JSON.parse(process.argv[2]);
const client = new Client({ host, username, password });
const before = await client.getBlockCount();
const { descriptor } = await client.getDescriptorInfo(`wpkh(${key})`);
const [address] = await client.deriveAddresses(descriptor);
const [hash] = await client.generateToAddress(1, address);
const block = await client.getBlock(hash);
const coinbase = await client.getRawTransaction(block.tx[0], true);
const paid = coinbase.vout.filter((out) => (out.scriptPubKey.address ?? out.scriptPubKey.addresses?.[0]) === address).map((out) => out.value);
// A refused method: how the client reports the platform's refusal.
const refused = await client.stop().then(
  () => undefined,
  (error) => ({ name: error.name, code: error.code, message: error.message }),
);
console.log(
  JSON.stringify({
    before,
    after: await client.getBlockCount(),
    address,
    hash,
    height: block.height,
    coinbaseTxid: coinbase.txid,
    coinbaseIsFirst: block.tx[0] === coinbase.txid,
    isCoinbase: Boolean(coinbase.vin[0]?.coinbase),
    paid,
    refused,
  }),
);
