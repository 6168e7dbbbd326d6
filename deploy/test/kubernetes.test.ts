import { mkdirSync, writeFileSync } from 'node:fs';
import { ACCOUNTS_SHUTDOWN } from '@cloud/accounts';
import path from 'node:path';
import { containerEnvironment, kubectlKustomize, KUSTOMIZE_DIR, named, ofKind, preparedCopy, SAMPLE_CONNECTIONS, type K8sObject } from './support/kubernetes';
import { IMAGE_NAMES, IMAGES, PROXY_PUBLIC_PORTS, SERVICE_NAMES, SERVICES, unknownVariables, validateEnvironment } from './support/services';

const PLATFORM = 'cloud-platform';
const NODES_NAMESPACE = 'cloud-nodes';
const MIGRATING = SERVICE_NAMES.filter((name) => SERVICES[name].migrates);

describe('deploy/kubernetes, production overlay rendered by kubectl kustomize', () => {
  let objects: K8sObject[];
  let remove: () => void;
  let dir: string;
  beforeAll(() => {
    ({ dir, remove } = preparedCopy());
    objects = kubectlKustomize(path.join(dir, 'overlays', 'production'));
  });
  afterAll(() => remove());

  const deployment = (name: string) => named(objects, 'Deployment', name);
  const podSpec = (workload: K8sObject) => workload.spec.template.spec as K8sObject;
  const mainContainer = (workload: K8sObject) => podSpec(workload).containers[0] as K8sObject;

  it('has one Deployment per service and for the console, in the platform namespace, with its image from the overlay', () => {
    expect(
      ofKind(objects, 'Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual([...IMAGE_NAMES].sort());
    for (const name of IMAGE_NAMES) {
      expect(deployment(name).metadata.namespace).toBe(PLATFORM);
      expect(mainContainer(deployment(name)).image).toBe(`registry.example.com/cloud-nodes/${name}:0.1.0`);
    }
  });

  describe.each(IMAGE_NAMES)('the %s Deployment', (name) => {
    it('gives its container an environment the service accepts, with no variable it does not read', () => {
      const env = containerEnvironment(objects, mainContainer(deployment(name)), PLATFORM);
      expect(unknownVariables(name, env)).toEqual([]);
      expect(() => validateEnvironment(name, env)).not.toThrow();
      expect(env[IMAGES[name].hostVariable]).toBe('0.0.0.0');
      if (name === 'console') return;
      expect(env.AMQP_URL).toBe(SAMPLE_CONNECTIONS.AMQP_URL);
      if (SERVICES[name].migrates) {
        expect(env.DATABASE_URL).toBe(SAMPLE_CONNECTIONS.DATABASE_URL);
        expect(env.RUN_MIGRATIONS).toBe('false');
      }
    });

    it('mounts every key file its environment names, from a Secret', () => {
      const container = mainContainer(deployment(name));
      const env = containerEnvironment(objects, container, PLATFORM);
      const files = Object.entries(env).filter(([variable]) => /_FILE$|^PROXY_TLS_(CERT|KEY)$/.test(variable));
      // The console reads no key: the browser, not its server, calls the APIs.
      if (name === 'console') expect(files).toEqual([]);
      else expect(files.length).toBeGreaterThan(0);
      for (const [variable, file] of files) {
        const mount = (container.volumeMounts as K8sObject[]).find((m) => file.startsWith(`${m.mountPath}/`));
        expect({ variable, mounted: Boolean(mount) }).toEqual({ variable, mounted: true });
        const volume = (podSpec(deployment(name)).volumes as K8sObject[]).find((v) => v.name === mount?.name);
        const secret = named(objects, 'Secret', volume?.secret?.secretName);
        expect(Object.keys(secret.data)).toContain(path.basename(file));
      }
    });

    it('is probed on /readyz (the console: /healthz) and /healthz, runs as non-root, and is scaled by an HPA', () => {
      const container = mainContainer(deployment(name));
      expect(container.readinessProbe.httpGet.path).toBe(IMAGES[name].readinessPath);
      expect(container.livenessProbe.httpGet.path).toBe('/healthz');
      const probePort = (container.ports as K8sObject[]).find((p) => p.name === container.readinessProbe.httpGet.port);
      expect(probePort?.containerPort).toBe(IMAGES[name].healthPort[1]);
      expect(container.resources?.limits).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
      expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
      expect(podSpec(deployment(name)).securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      const hpa = named(objects, 'HorizontalPodAutoscaler', name);
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    });
  });

  it('gives the accounts pods longer to stop than the service takes (its exit bound after SIGTERM)', () => {
    expect((podSpec(deployment('accounts')).terminationGracePeriodSeconds as number) * 1000).toBeGreaterThan(ACCOUNTS_SHUTDOWN.exitBoundMs);
  });

  it('names each replica of the nodes service, the proxy and streams by its pod (leases, usage)', () => {
    for (const [name, variable] of [
      ['nodes', 'NODES_INSTANCE_ID'],
      ['node-proxy', 'PROXY_INSTANCE_ID'],
      ['streams', 'STREAMS_INSTANCE_ID'],
    ] as const) {
      const env = (mainContainer(deployment(name)).env as K8sObject[]).find((e) => e.name === variable);
      expect(env?.valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.name' } });
    }
  });

  it('runs the nodes service on the Kubernetes driver in the nodes namespace, one NODE_DOMAIN for all', () => {
    const env = containerEnvironment(objects, mainContainer(deployment('nodes')), PLATFORM);
    expect(env).toMatchObject({ NODE_DRIVER: 'kubernetes', KUBE_NAMESPACE: NODES_NAMESPACE, KUBE_PLATFORM_NAMESPACE: PLATFORM });
    const domains = ['nodes', 'staking', 'node-proxy'].map((n) => containerEnvironment(objects, mainContainer(deployment(n)), PLATFORM).NODE_DOMAIN);
    expect(new Set(domains)).toEqual(new Set(['nodes.example.com']));
  });

  it('has a migrations Job per migrating service, running its migrate script, that no Service selects', () => {
    const jobs = ofKind(objects, 'Job');
    expect(jobs.map((job) => job.metadata.name).sort()).toEqual(MIGRATING.map((name) => `${name}-migrations`).sort());
    for (const name of MIGRATING) {
      const job = named(objects, 'Job', `${name}-migrations`);
      const container = mainContainer(job);
      expect(container.image).toBe(mainContainer(deployment(name)).image);
      expect(container.command).toEqual(['node', 'dist/migrate.js']);
      const env = containerEnvironment(objects, container, PLATFORM);
      expect(env.DATABASE_URL).toBe(SAMPLE_CONNECTIONS.DATABASE_URL);
      expect(() => validateEnvironment(name, env)).not.toThrow();
      const podLabels = job.spec.template.metadata.labels as Record<string, string>;
      for (const service of ofKind(objects, 'Service')) {
        const selector = (service.spec.selector ?? {}) as Record<string, string>;
        expect(Object.entries(selector).every(([key, value]) => podLabels[key] === value)).toBe(false);
      }
    }
  });

  it('gives only the nodes service Kubernetes credentials, allowed in the nodes namespace only', () => {
    expect(ofKind(objects, 'ClusterRole')).toEqual([]);
    expect(ofKind(objects, 'ClusterRoleBinding')).toEqual([]);
    const roles = ofKind(objects, 'Role');
    expect(roles.map((role) => `${role.metadata.namespace}/${role.metadata.name}`)).toEqual([`${NODES_NAMESPACE}/nodes-driver`]);
    const granted = new Map<string, string[]>();
    for (const rule of roles[0]?.rules ?? []) for (const resource of rule.resources) granted.set(resource, rule.verbs);
    const manage = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
    for (const resource of ['statefulsets', 'services', 'secrets', 'networkpolicies']) {
      expect([resource, granted.get(resource)]).toEqual([resource, manage]);
    }
    expect(granted.get('persistentvolumeclaims')).toEqual(expect.arrayContaining(['get', 'list', 'patch', 'delete']));
    expect(granted.get('pods')).toEqual(expect.arrayContaining(['get', 'list', 'watch']));
    expect(granted.get('pods/log')).toEqual(['get']);
    const binding = named(objects, 'RoleBinding', 'nodes-driver');
    expect(binding.metadata.namespace).toBe(NODES_NAMESPACE);
    expect(binding.roleRef).toMatchObject({ kind: 'Role', name: 'nodes-driver' });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'nodes', namespace: PLATFORM }]);
    expect(podSpec(deployment('nodes')).serviceAccountName).toBe('nodes');
    for (const name of IMAGE_NAMES.filter((n) => n !== 'nodes')) {
      expect(podSpec(deployment(name)).automountServiceAccountToken).toBe(false);
    }
  });

  it("labels the proxy's, staking's and streams' pods as the nodes' NetworkPolicy selects them", () => {
    expect(deployment('node-proxy').spec.template.metadata.labels['app.kubernetes.io/name']).toBe('node-proxy');
    expect(deployment('staking').spec.template.metadata.labels['app.kubernetes.io/name']).toBe('staking');
    expect(deployment('streams').spec.template.metadata.labels['app.kubernetes.io/name']).toBe('streams');
  });

  it('puts the proxy behind a LoadBalancer on the contract ports, with its wildcard certificate from a TLS Secret', () => {
    const service = named(objects, 'Service', 'node-proxy');
    expect(service.spec.type).toBe('LoadBalancer');
    expect((service.spec.ports as K8sObject[]).map((p) => p.port).sort()).toEqual([...PROXY_PUBLIC_PORTS].sort());
    const tlsVolume = (podSpec(deployment('node-proxy')).volumes as K8sObject[]).find((v) => v.name === 'tls');
    const secret = named(objects, 'Secret', tlsVolume?.secret?.secretName);
    expect(secret.type).toBe('kubernetes.io/tls');
    expect(Buffer.from(secret.data['tls.crt'], 'base64').toString()).toContain('BEGIN CERTIFICATE');
    const env = containerEnvironment(objects, mainContainer(deployment('node-proxy')), PLATFORM);
    expect(env).toMatchObject({ PROXY_TLS: 'on', PROXY_TLS_CERT: '/etc/cloud-nodes/tls/tls.crt', PROXY_TLS_KEY: '/etc/cloud-nodes/tls/tls.key' });
    // One worker per core of the CPU limit (the container's cores are not what the process sees).
    expect(env.PROXY_WORKERS).toBe('2');
  });

  it('keeps every secret out of ConfigMaps', () => {
    const secretValues = Object.values(SAMPLE_CONNECTIONS);
    for (const configMap of ofKind(objects, 'ConfigMap')) {
      for (const [key, value] of Object.entries((configMap.data ?? {}) as Record<string, string>)) {
        const where = `${configMap.metadata.name}: ${key}`;
        expect([
          where,
          /PASSWORD|SECRET(?!_HASH_KEY_FILE|_KEY_FILE)|_URL$/.test(key) && !/^(PUBLIC_ACCOUNTS|PUBLIC_NODE|ACCOUNTS|CONSOLE|CONSOLE_API)_URL$/.test(key),
        ]).toEqual([where, false]);
        expect([where, /:\/\/[^/@\s]+:[^/@\s]+@/.test(value)]).toEqual([where, false]);
        expect([where, /-----BEGIN/.test(value)]).toEqual([where, false]);
        expect([where, secretValues.includes(value) || key === 'STAKING_KEY_ENCRYPTION_KEY']).toEqual([where, false]);
      }
    }
  });

  it("serves the console at the API's own address: the page calls the APIs there, the e-mails link to it", () => {
    const consoleEnv = containerEnvironment(objects, mainContainer(deployment('console')), PLATFORM);
    const accountsEnv = containerEnvironment(objects, mainContainer(deployment('accounts')), PLATFORM);
    const host = named(objects, 'Ingress', 'api').spec.rules[0].host as string;
    expect(consoleEnv.CONSOLE_API_URL).toBe(`https://${host}`);
    expect(accountsEnv.CONSOLE_URL).toBe(`https://${host}`);
    expect(accountsEnv.PUBLIC_ACCOUNTS_URL).toBe(`https://${host}`);
    // Same origin: no CORS_ORIGINS needed for the console's page.
    expect(consoleEnv.CONSOLE_PROXY_CA_FILE).toBeUndefined();
    const service = named(objects, 'Service', 'console');
    expect(service.spec.selector).toMatchObject({ 'app.kubernetes.io/name': 'console' });
    expect((service.spec.ports as K8sObject[]).map((p) => [p.port, p.targetPort])).toEqual([[3000, 'http']]);
    expect(service.spec.type ?? 'ClusterIP').toBe('ClusterIP');
  });

  it('renders with cert-manager making the proxy certificate instead', () => {
    const overlay = path.join(dir, 'overlays', 'cert-manager-test');
    mkdirSync(overlay);
    writeFileSync(
      path.join(overlay, 'kustomization.yaml'),
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../../base]\ncomponents: [../../components/cert-manager]\n',
    );
    const rendered = kubectlKustomize(overlay);
    const certificate = named(rendered, 'Certificate', 'node-proxy');
    expect(certificate.spec.secretName).toBe('node-proxy-tls');
    expect(certificate.spec.dnsNames).toEqual(['*.nodes.example.com']);
    const tlsVolume = (named(rendered, 'Deployment', 'node-proxy').spec.template.spec.volumes as K8sObject[]).find((v) => v.name === 'tls');
    expect(tlsVolume?.secret.secretName).toBe('node-proxy-tls');
  });
});

describe('deploy/kubernetes/base', () => {
  it('renders alone, making no Secret (the overlay makes them)', () => {
    const objects = kubectlKustomize(path.join(KUSTOMIZE_DIR, 'base'));
    expect(ofKind(objects, 'Secret')).toEqual([]);
    expect(
      ofKind(objects, 'Namespace')
        .map((n) => n.metadata.name)
        .sort(),
    ).toEqual([NODES_NAMESPACE, PLATFORM]);
  });
});
