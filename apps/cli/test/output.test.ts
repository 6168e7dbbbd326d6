import { note, printJson, printRecord, printTable } from '../src/output';
import { captureOutput } from './support/capture';

const nodes = [
  { id: 'node-1', chain: 'eth', state: 'running', tags: { team: 'a' }, address: null },
  { id: 'node-22', chain: 'btc', state: 'provisioning', tags: [], address: 'https://node-22.example' },
];

test('a table: a header row and space-separated columns, no box characters, nothing on err', () => {
  const { o, out, err } = captureOutput();
  printTable(
    o,
    nodes,
    [
      { key: 'id', header: 'ID' },
      { key: 'chain', header: 'CHAIN', format: (value) => String(value).toUpperCase() },
      { key: 'state', header: 'STATE' },
      { key: 'tags', header: 'TAGS' },
      { key: 'address', header: 'ADDRESS' },
    ],
    'No nodes.',
  );
  expect(out.text).toBe(
    [
      'ID        CHAIN   STATE          TAGS           ADDRESS',
      'node-1    ETH     running        {"team":"a"}   -',
      'node-22   BTC     provisioning   []             https://node-22.example',
      '',
    ].join('\n'),
  );
  expect(err.text).toBe('');
});

test('a format sees the whole row', () => {
  const { o, out } = captureOutput();
  printTable(o, nodes, [{ key: 'id', header: 'NODE', format: (value, row) => `${String(value)}/${row.chain}` }], 'No nodes.');
  expect(out.text).toBe('NODE\nnode-1/eth\nnode-22/btc\n');
});

test('an empty table prints only the empty message, on err', () => {
  const { o, out, err } = captureOutput();
  printTable(o, [], [{ key: 'id', header: 'ID' }], 'No nodes.');
  expect(out.text).toBe('');
  expect(err.text).toBe('No nodes.\n');
});

test('a record: aligned label: value lines, undefined left out, null as -', () => {
  const { o, out } = captureOutput();
  printRecord(o, [
    ['id', 'node-1'],
    ['state', 'running'],
    ['reason', undefined],
    ['rpc address', null],
  ]);
  expect(out.text).toBe('id:          node-1\nstate:       running\nrpc address: -\n');
});

test('json: two-space indented, newline-terminated, on out', () => {
  const { o, out, err } = captureOutput(true);
  printJson(o, { id: 'node-1', tags: ['a'] });
  expect(out.text).toBe('{\n  "id": "node-1",\n  "tags": [\n    "a"\n  ]\n}\n');
  expect(JSON.parse(out.text)).toEqual({ id: 'node-1', tags: ['a'] });
  expect(err.text).toBe('');
});

test('a note goes to err in both modes', () => {
  for (const json of [false, true]) {
    const { o, out, err } = captureOutput(json);
    note(o, 'the secret is shown once');
    expect(out.text).toBe('');
    expect(err.text).toBe('the secret is shown once\n');
  }
});
