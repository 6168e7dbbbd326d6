import { NodeErrorScan } from '../src/usage/node-error-scan';

describe('finding JSON-RPC errors in a streamed answer', () => {
  const scan = (chunks: string[], keep = false) => {
    const scanner = new NodeErrorScan(keep);
    for (const chunk of chunks) scanner.feed(Buffer.from(chunk));
    return scanner;
  };

  it('counts error objects, not results, null errors or the word in a string', () => {
    expect(scan(['{"result":"0x1","error":null,"id":1}']).errors).toBe(0);
    expect(scan(['{"jsonrpc":"2.0","id":1,"result":"say \\"error\\":{ here"}']).errors).toBe(0);
    expect(scan(['{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}']).errors).toBe(1);
    expect(scan(['[{"id":1,"error":{"code":1}},{"id":2,"result":1},{"id":3,"error":{"code":2}}]']).errors).toBe(2);
  });

  it('finds a marker split between chunks, once, and keeps the chunks when asked', () => {
    const text = '[{"id":1,"error":{"code":1}},{"id":2,"error":{"code":2}}]';
    for (let cut = 1; cut < text.length; cut += 1) expect(scan([text.slice(0, cut), text.slice(cut)]).errors).toBe(2);
    expect(scan([...text]).errors).toBe(2);
    expect(scan([text.slice(0, 5), text.slice(5)], true).text()).toBe(text);
  });
});
