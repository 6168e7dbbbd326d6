import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { IMAGE_IDS, IMAGES } from '@cloud/chains';
import { nodeRpcPassword } from '@cloud/node-rpc-auth';
import { defaultCatalogue, nodeManifests, type KubernetesClientModule, type NodeManifests } from '../src/drivers/kubernetes';
import { findOnPath } from '../src/drivers/local/software';
import { GOLDEN_DIR, SECRET_KEY, SETTINGS, SIZES, goldenFile, goldenInput, nodeIdOf, toYaml } from './kubernetes/fixtures';
import { loadKubernetesClient } from '../src/drivers/kubernetes/kube-api';
import { schemaProblems } from './kubernetes/schema';

// UPDATE_GOLDEN=1 rewrites the files under test/kubernetes/golden/ from the code; review the diff.
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const catalogue = defaultCatalogue();
const cases = IMAGE_IDS.flatMap((image) => SIZES.map((size) => ({ image, size })));

let k8s: KubernetesClientModule;
beforeAll(async () => {
  k8s = await loadKubernetesClient();
  if (UPDATE) mkdirSync(GOLDEN_DIR, { recursive: true });
});

const objectsOf = (manifests: NodeManifests) => [
  { object: manifests.secret, type: 'V1Secret' },
  { object: manifests.service, type: 'V1Service' },
  { object: manifests.networkPolicy, type: 'V1NetworkPolicy' },
  { object: manifests.statefulSet, type: 'V1StatefulSet' },
];

describe('kubernetes manifests', () => {
  it.each(cases)('$image ($size) match their golden file', ({ image, size }) => {
    const yaml = toYaml(k8s, nodeManifests(goldenInput(image, size), catalogue, SETTINGS));
    if (UPDATE) writeFileSync(goldenFile(image, size), yaml);
    expect(yaml).toBe(readFileSync(goldenFile(image, size), 'utf8'));
  });

  it.each(cases)('$image ($size) use only fields the Kubernetes API defines', ({ image, size }) => {
    for (const { object, type } of objectsOf(nodeManifests(goldenInput(image, size), catalogue, SETTINGS))) {
      expect(schemaProblems(k8s, object, type)).toEqual([]);
    }
  });

  it('are checked field by field (a misspelt field is caught, not dropped)', () => {
    const { statefulSet } = nodeManifests(goldenInput('btc', 'standard'), catalogue, SETTINGS);
    const misspelt = { ...statefulSet, spec: { ...statefulSet.spec, replica: 1 } };
    expect(schemaProblems(k8s, misspelt, 'V1StatefulSet')).toEqual(['$.spec.replica: not a field of V1StatefulSetSpec']);
  });

  it('never hold a clear RPC password; bitcoind gets only an rpcauth hash, through the Secret', () => {
    for (const { image, size } of cases) {
      const yaml = readFileSync(goldenFile(image, size), 'utf8');
      expect(yaml).not.toContain(nodeRpcPassword(SECRET_KEY, nodeIdOf(image)));
      expect(yaml).not.toMatch(/rpcpassword|rpcuser/i);
      if (IMAGES[image].family === 'bitcoin') {
        expect(yaml).toMatch(/rpcauth: cloud-proxy:[0-9a-f]{32}\$[0-9a-f]{64}\n/);
        expect(yaml).toContain("'-rpcauth=$(RPCAUTH)'");
        expect(yaml).not.toMatch(/-rpcauth=cloud-proxy/);
      }
    }
  });

  it('size the volume per chain and network, and give a large node the larger resource class', () => {
    const standard = nodeManifests(goldenInput('btc', 'standard'), catalogue, SETTINGS).statefulSet.spec;
    const large = nodeManifests(goldenInput('btc', 'large'), catalogue, SETTINGS).statefulSet.spec;
    const testnet = nodeManifests(goldenInput('btctestnet', 'standard'), catalogue, SETTINGS).statefulSet.spec;
    expect(standard?.volumeClaimTemplates?.[0]?.spec?.resources?.requests).toEqual({ storage: '1000Gi' });
    expect(testnet?.volumeClaimTemplates?.[0]?.spec?.resources?.requests).toEqual({ storage: '150Gi' });
    expect(standard?.template.spec?.containers[0]?.resources).toEqual({ requests: { cpu: '1', memory: '3Gi' }, limits: { cpu: '2', memory: '4Gi' } });
    expect(large?.template.spec?.containers[0]?.resources).toEqual({ requests: { cpu: '4', memory: '12Gi' }, limits: { cpu: '8', memory: '16Gi' } });
    expect(large?.template.spec?.containers[0]?.args).toContain('-dbcache=8000');
  });

  it('give a txindex node -txindex on its node container, and no other node or container', () => {
    const argsOf = (manifests: NodeManifests) => manifests.statefulSet.spec?.template.spec?.containers.map((container) => container.args ?? []) ?? [];
    const [indexed] = argsOf(nodeManifests({ ...goldenInput('ltc', 'standard'), txindex: true }, catalogue, SETTINGS));
    expect(indexed).toContain('-txindex');
    expect(argsOf(nodeManifests(goldenInput('ltc', 'standard'), catalogue, SETTINGS)).flat()).not.toContain('-txindex');
    // geth has no such flag, and its beacon node beside it none either.
    expect(argsOf(nodeManifests({ ...goldenInput('eth', 'standard'), txindex: true }, catalogue, SETTINGS)).flat()).not.toContain('-txindex');
  });

  it('take the storage class and the platform namespace from the settings', () => {
    const manifests = nodeManifests(goldenInput('avalanche', 'standard'), catalogue, { ...SETTINGS, storageClass: 'fast-ssd', platformNamespace: 'cloud' });
    expect(manifests.statefulSet.spec?.volumeClaimTemplates?.[0]?.spec?.storageClassName).toBe('fast-ssd');
    const namespaceSelector = { matchLabels: { 'kubernetes.io/metadata.name': 'cloud' } };
    expect(manifests.networkPolicy.spec?.ingress?.[0]?._from).toEqual([
      { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'node-proxy' } }, namespaceSelector },
      { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'nodes' } }, namespaceSelector },
      { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'staking' } }, namespaceSelector },
    ]);
  });

  it('let only the node-proxy, the nodes service (sync readings) and streams reach a user node’s RPC port, and everyone its P2P ports', () => {
    const policy = nodeManifests(goldenInput('eth', 'standard'), catalogue, SETTINGS).networkPolicy.spec;
    expect(policy?.ingress).toEqual([
      {
        _from: [
          { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'node-proxy' } } },
          { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'nodes' } } },
          { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'streams' } } },
        ],
        ports: [{ protocol: 'TCP', port: 8545 }],
      },
      {
        ports: [
          { protocol: 'TCP', port: 30303 },
          { protocol: 'UDP', port: 30303 },
          { protocol: 'TCP', port: 9000 },
          { protocol: 'UDP', port: 9000 },
          { protocol: 'UDP', port: 9001 },
        ],
      },
    ]);
  });

  it('keep the catalogue’s node software locked down: no wallet, REST on, no admin APIs', () => {
    for (const image of IMAGE_IDS) {
      const args = catalogue.images[image]?.containers[0]?.args ?? [];
      if (IMAGES[image].family === 'bitcoin') {
        expect(args).toEqual(
          expect.arrayContaining(['-server', '-rest', '-disablewallet', '-rpcbind=0.0.0.0', '-rpcallowip={{rpcAllowCidr}}', '-rpcauth=$(RPCAUTH)']),
        );
      }
      if (IMAGES[image].family === 'ethereum') {
        for (const api of args.filter((arg) => /^--(http|ws)\.api=/.test(arg))) expect(api).not.toMatch(/admin|personal|debug|miner/);
        expect(args).toContain('--authrpc.addr=127.0.0.1');
      }
      if (IMAGES[image].family === 'avalanche') expect(args).toContain('--api-admin-enabled=false');
    }
  });

  // kubectl validates schemas only against an API server's OpenAPI document (there is none here),
  // so offline it checks what it can: that it parses every document as a Kubernetes object.
  const kubectl = findOnPath('kubectl');
  (kubectl ? it : it.skip)('parse with kubectl (offline, --local)', async () => {
    const files = cases.map(({ image, size }) => ['-f', goldenFile(image, size)]).flat();
    const { stdout } = await promisify(execFile)(kubectl as string, ['label', '--local', ...files, 'checked=true', '-o', 'name'], {
      env: { ...process.env, KUBECONFIG: '/dev/null' },
    });
    const names = stdout.trim().split('\n');
    expect(names).toHaveLength(cases.length * 4);
    expect(new Set(names.map((name) => name.split('/')[0]))).toEqual(new Set(['secret', 'service', 'networkpolicy.networking.k8s.io', 'statefulset.apps']));
  });
});
