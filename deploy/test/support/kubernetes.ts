import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { REPO_ROOT } from './services';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { makeKeys } = require('../../make-keys.js') as { makeKeys: (folder: string) => string[] };

/** A rendered Kubernetes object, loosely typed: the tests read what they check. */
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [key: string]: any;
};

export const KUSTOMIZE_DIR = path.join(REPO_ROOT, 'deploy', 'kubernetes');

export const SAMPLE_CONNECTIONS = {
  DATABASE_URL: 'postgres://cloud:db-password@postgres.example.com:5432/cloud',
  AMQP_URL: 'amqp://cloud:amqp-password@rabbitmq.example.com:5672',
  SMTP_URL: 'smtps://mailer:smtp-password@smtp.example.com:465',
};

export function kubectlKustomize(dir: string): K8sObject[] {
  const out = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return parseAllDocuments(out).map((doc) => doc.toJS() as K8sObject);
}

/**
 * A copy of deploy/kubernetes whose production overlay has its secrets/ filled as an operator
 * fills it (deploy/make-keys.js, connections.env, a certificate), so the overlay renders.
 */
export function preparedCopy(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cloud-deploy-'));
  cpSync(KUSTOMIZE_DIR, dir, { recursive: true });
  const secrets = path.join(dir, 'overlays', 'production', 'secrets');
  makeKeys(secrets);
  writeFileSync(
    path.join(secrets, 'connections.env'),
    Object.entries(SAMPLE_CONNECTIONS)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(''),
  );
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=*.nodes.example.com',
      '-addext',
      'subjectAltName=DNS:*.nodes.example.com',
      '-keyout',
      path.join(secrets, 'tls.key'),
      '-out',
      path.join(secrets, 'tls.crt'),
    ],
    { stdio: 'ignore' },
  );
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function ofKind(objects: K8sObject[], kind: string): K8sObject[] {
  return objects.filter((object) => object.kind === kind);
}

export function named(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the rendered manifests`);
  return found;
}

/**
 * The environment a container gets, resolved as the kubelet would: envFrom ConfigMaps and Secrets,
 * then env with values, configMapKeyRef, secretKeyRef and fieldRef (a sample pod name).
 */
export function containerEnvironment(objects: K8sObject[], container: K8sObject, namespace: string): Record<string, string> {
  const source = (kind: 'ConfigMap' | 'Secret', name: string): Record<string, string> => {
    const object = objects.find((o) => o.kind === kind && o.metadata.name === name && o.metadata.namespace === namespace);
    if (!object) throw new Error(`${kind} ${namespace}/${name} is referenced but not rendered`);
    const data = (object.data ?? {}) as Record<string, string>;
    return kind === 'Secret' ? Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')])) : data;
  };
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    Object.assign(env, from.configMapRef ? source('ConfigMap', from.configMapRef.name) : source('Secret', from.secretRef.name));
  }
  for (const variable of container.env ?? []) {
    const ref = variable.valueFrom;
    if (variable.value !== undefined) env[variable.name] = String(variable.value);
    else if (ref?.configMapKeyRef) env[variable.name] = requiredKey(source('ConfigMap', ref.configMapKeyRef.name), ref.configMapKeyRef.key, variable.name);
    else if (ref?.secretKeyRef) {
      const value = source('Secret', ref.secretKeyRef.name)[ref.secretKeyRef.key];
      if (value !== undefined) env[variable.name] = value;
      else if (!ref.secretKeyRef.optional) throw new Error(`${variable.name}: ${ref.secretKeyRef.name} has no ${ref.secretKeyRef.key}`);
    } else if (ref?.fieldRef?.fieldPath === 'metadata.name') env[variable.name] = 'pod-name-0';
    else if (ref?.resourceFieldRef) env[variable.name] = cpuCores(container, ref.resourceFieldRef);
    else throw new Error(`${variable.name}: a value source these tests do not resolve`);
  }
  return env;
}

/** A `limits.cpu`/`requests.cpu` resourceFieldRef with divisor 1, as the kubelet renders it: whole cores, rounded up. */
function cpuCores(container: K8sObject, ref: { resource: string; divisor?: string; containerName?: string }): string {
  const [kind, resource] = ref.resource.split('.') as ['limits' | 'requests', string];
  const quantity = container.resources?.[kind]?.[resource] as string | undefined;
  if (resource !== 'cpu' || (ref.divisor ?? '1') !== '1' || quantity === undefined) throw new Error(`${ref.resource}: a resource these tests do not resolve`);
  if (ref.containerName !== undefined && ref.containerName !== container.name) throw new Error(`${ref.resource}: names another container`);
  const cores = quantity.endsWith('m') ? Number(quantity.slice(0, -1)) / 1000 : Number(quantity);
  return String(Math.ceil(cores));
}

function requiredKey(data: Record<string, string>, key: string, variable: string): string {
  const value = data[key];
  if (value === undefined) throw new Error(`${variable}: the ConfigMap has no ${key}`);
  return value;
}
