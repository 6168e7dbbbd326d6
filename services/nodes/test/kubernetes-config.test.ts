import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@cloud/config';
import { createLogger } from '@cloud/logging';
import { loadNodesConfig } from '../src';
import { openNodeDriver } from '../src/drivers/open-driver';
import { KubernetesDriver } from '../src/drivers/kubernetes';

describe('NODE_DRIVER=kubernetes', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'kube-config-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('opens the kubernetes driver in KUBE_NAMESPACE, offering what its catalogue runs', async () => {
    const config = loadNodesConfig({ NODE_DRIVER: 'kubernetes', KUBE_NAMESPACE: 'chains', DATA_DIR: dir });
    const driver = openNodeDriver(config, createLogger({ service: 'test', level: 'silent' }));
    expect(driver).toBeInstanceOf(KubernetesDriver);
    expect(driver.name).toBe('kubernetes');
    expect((driver as KubernetesDriver).namespace).toBe('chains');
    expect(await driver.chains()).toContainEqual({ image: 'btc', chain: 'btc', network: 'mainnet', software: 'bitcoin-core-30.2', dev: false, pruned: false });
    await driver.close();
  });

  it('has defaults for every KUBE_* variable', () => {
    expect(loadNodesConfig({ NODE_DRIVER: 'kubernetes' })).toMatchObject({
      KUBE_NAMESPACE: 'cloud-nodes',
      KUBE_PROXY_POD_SELECTOR: 'app.kubernetes.io/name=node-proxy',
      KUBE_STAKING_POD_SELECTOR: 'app.kubernetes.io/name=staking',
      KUBE_STREAMS_POD_SELECTOR: 'app.kubernetes.io/name=streams',
      KUBE_RPC_ALLOW_CIDRS: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'],
      KUBE_PVC_DELETE_GRACE_SECONDS: 0,
      KUBE_REQUEST_TIMEOUT_MS: 10_000,
      KUBE_CRASH_RESTARTS: 5,
      KUBE_UNSCHEDULABLE_SECONDS: 900,
    });
  });

  it('stops on bad KUBE_* values, naming each variable', () => {
    let thrown: unknown;
    try {
      loadNodesConfig({
        KUBE_NAMESPACE: 'Cloud_Nodes',
        KUBE_PROXY_POD_SELECTOR: 'node-proxy',
        KUBE_RPC_ALLOW_CIDRS: '10.0.0.0/8,everywhere',
        KUBE_PVC_DELETE_GRACE_SECONDS: '-1',
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).problems.map((problem) => problem.split(/[.:]/)[0]).sort()).toEqual([
      'KUBE_NAMESPACE',
      'KUBE_PROXY_POD_SELECTOR',
      'KUBE_PVC_DELETE_GRACE_SECONDS',
      'KUBE_RPC_ALLOW_CIDRS',
    ]);
  });
});
