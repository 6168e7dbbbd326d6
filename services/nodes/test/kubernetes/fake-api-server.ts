import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** A Kubernetes object as JSON on the wire. */
export interface WireObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    resourceVersion?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  /** `secrets`, `statefulsets`, `pods`, ... */
  resource: string;
  name?: string;
  /** `log` for a pod's log. */
  subresource?: string;
  namespace: string;
  query: URLSearchParams;
  body: unknown;
  contentType: string | undefined;
  authorization: string | undefined;
}

interface Rule {
  method?: string;
  resource?: string;
  answer: { status: number; reason: string; message: string } | 'hang';
  times: number;
}

const KINDS: Record<string, { kind: string; apiVersion: string }> = {
  secrets: { kind: 'Secret', apiVersion: 'v1' },
  services: { kind: 'Service', apiVersion: 'v1' },
  persistentvolumeclaims: { kind: 'PersistentVolumeClaim', apiVersion: 'v1' },
  pods: { kind: 'Pod', apiVersion: 'v1' },
  statefulsets: { kind: 'StatefulSet', apiVersion: 'apps/v1' },
  networkpolicies: { kind: 'NetworkPolicy', apiVersion: 'networking.k8s.io/v1' },
};

/**
 * A stand-in for the Kubernetes API server, for the driver's tests: it keeps objects per resource,
 * answers as the real one does (201 on create, 409 AlreadyExists and 404 NotFound as `Status`
 * objects, resourceVersion conflicts on PUT, JSON merge patches, label selectors on lists, a pod's
 * log as text with `tailLines`), creates a StatefulSet's volume claims as its controller would (and
 * deletes its pod when scaled to zero), refuses changes to a StatefulSet's immutable fields, and
 * records every request. Tests put pods in themselves (the scheduler and kubelet are not faked),
 * and can make the next matching calls fail or hang.
 */
export class FakeKubernetesApi {
  readonly requests: RecordedRequest[] = [];
  /** Pod name → its node container's log. */
  readonly logs = new Map<string, string>();
  private readonly store = new Map<string, Map<string, WireObject>>();
  private readonly rules: Rule[] = [];
  private readonly server: Server;
  private version = 1;
  private url: string | undefined;

  constructor() {
    this.server = createServer((request, response) => {
      void this.handle(request, response).catch((error: unknown) => {
        response.writeHead(500).end(String(error));
      });
    });
  }

  /** Listens on a free port of 127.0.0.1; answers its URL. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Writes a kubeconfig for this server (bearer token auth) into `dir` and returns its path. */
  kubeconfig(dir: string): string {
    const { url } = this;
    if (!url) throw new Error('start the fake API server first');
    const file = path.join(dir, 'kubeconfig.json');
    writeFileSync(
      file,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        // Plain HTTP: the client takes it only with TLS verification off (there is no TLS to verify).
        clusters: [{ name: 'fake', cluster: { server: url, 'insecure-skip-tls-verify': true } }],
        users: [{ name: 'nodes-service', user: { token: 'fake-token' } }],
        contexts: [{ name: 'fake', context: { cluster: 'fake', user: 'nodes-service' } }],
        'current-context': 'fake',
      }),
    );
    return file;
  }

  /** Makes the next `times` matching calls answer `status` with a Status object. */
  failNext(match: { method?: string; resource?: string }, status: number, reason: string, message: string, times = 1): void {
    this.rules.push({ ...match, answer: { status, reason, message }, times });
  }

  /** Makes the next matching call never answer. */
  hangNext(match: { method?: string; resource?: string }): void {
    this.rules.push({ ...match, answer: 'hang', times: 1 });
  }

  /** Puts an object in as if another party (the StatefulSet controller, an earlier instance) had made it. */
  put(resource: string, object: WireObject): WireObject {
    const stored = {
      ...KINDS[resource],
      ...object,
      metadata: { namespace: 'cloud-nodes', uid: randomUUID(), ...object.metadata, resourceVersion: String(++this.version) },
    };
    this.bucket(resource).set(object.metadata.name, stored);
    return stored;
  }

  get(resource: string, name: string): WireObject | undefined {
    return this.bucket(resource).get(name);
  }

  list(resource: string): WireObject[] {
    return [...this.bucket(resource).values()];
  }

  remove(resource: string, name: string): void {
    this.bucket(resource).delete(name);
  }

  /** The bodies of the objects POSTed, in order. */
  created(resource?: string): unknown[] {
    return this.requests.filter((request) => request.method === 'POST' && (!resource || request.resource === resource)).map((request) => request.body);
  }

  calls(method: string, resource?: string): RecordedRequest[] {
    return this.requests.filter((request) => request.method === method && (!resource || request.resource === resource));
  }

  private bucket(resource: string): Map<string, WireObject> {
    let bucket = this.store.get(resource);
    if (!bucket) this.store.set(resource, (bucket = new Map()));
    return bucket;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    const match = /^\/(?:api\/v1|apis\/[^/]+\/v1)\/namespaces\/([^/]+)\/([a-z]+)(?:\/([^/]+))?(?:\/([a-z]+))?$/.exec(url.pathname);
    const text = await readBody(request);
    if (!match) return status(response, 404, 'NotFound', `the server could not find the requested resource (${url.pathname})`);
    const [, namespace = '', resource = '', name, subresource] = match;
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      resource,
      namespace,
      query: url.searchParams,
      body: text ? JSON.parse(text) : undefined,
      contentType: request.headers['content-type'],
      authorization: request.headers.authorization,
      ...(name ? { name } : {}),
      ...(subresource ? { subresource } : {}),
    };
    this.requests.push(recorded);
    const rule = this.rules.find(
      (candidate) => (!candidate.method || candidate.method === recorded.method) && (!candidate.resource || candidate.resource === resource),
    );
    if (rule) {
      if (--rule.times === 0) this.rules.splice(this.rules.indexOf(rule), 1);
      if (rule.answer === 'hang') return; // the client's timeout has to end it
      return status(response, rule.answer.status, rule.answer.reason, rule.answer.message);
    }
    const kind = KINDS[resource];
    if (!kind) return status(response, 404, 'NotFound', `the server could not find the requested resource (${resource})`);
    const bucket = this.bucket(resource);
    const existing = name ? bucket.get(name) : undefined;
    const notFound = () => status(response, 404, 'NotFound', `${resource} "${name}" not found`, { name, kind: resource });

    if (subresource === 'log') {
      if (!existing) return notFound();
      const log = this.logs.get(name ?? '');
      if (log === undefined) return status(response, 400, 'BadRequest', `container "node" in pod "${name}" is waiting to start: ContainerCreating`);
      const tail = url.searchParams.get('tailLines');
      const lines = log.split('\n').filter((line, index, all) => line !== '' || index < all.length - 1);
      const body = (tail === null ? lines : lines.slice(-Number(tail))).map((line) => `${line}\n`).join('');
      response.writeHead(200, { 'content-type': 'text/plain' }).end(body);
      return;
    }
    switch (recorded.method) {
      case 'POST': {
        const body = recorded.body as WireObject;
        if (bucket.has(body.metadata.name)) {
          return status(response, 409, 'AlreadyExists', `${resource} "${body.metadata.name}" already exists`, { name: body.metadata.name, kind: resource });
        }
        const stored = this.put(resource, { ...body, metadata: { ...body.metadata, creationTimestamp: new Date().toISOString() } });
        if (resource === 'statefulsets') this.createVolumeClaims(stored);
        return json(response, 201, stored);
      }
      case 'GET':
        if (!name) {
          const items = [...bucket.values()].filter((object) => matchesSelector(object, url.searchParams.get('labelSelector')));
          return json(response, 200, { kind: `${kind.kind}List`, apiVersion: kind.apiVersion, metadata: { resourceVersion: String(this.version) }, items });
        }
        return existing ? json(response, 200, existing) : notFound();
      case 'PUT': {
        if (!existing) return notFound();
        const body = recorded.body as WireObject;
        if (body.metadata.resourceVersion !== existing.metadata.resourceVersion) {
          return status(response, 409, 'Conflict', `Operation cannot be fulfilled on ${resource} "${name}": the object has been modified`);
        }
        if (resource === 'statefulsets') {
          // As the real API server: a StatefulSet's volume claims, selector and service name never change.
          if (!sameImmutableFields(existing, body)) {
            return status(
              response,
              422,
              'Invalid',
              `StatefulSet.apps "${name}" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'template', ... are forbidden`,
            );
          }
          if ((body.spec as { replicas?: number }).replicas === 0) this.deletePods(body);
        }
        return json(response, 200, this.put(resource, body));
      }
      case 'PATCH': {
        if (!existing) return notFound();
        if (recorded.contentType !== 'application/merge-patch+json') return status(response, 415, 'UnsupportedMediaType', `the fake takes merge patches only`);
        return json(response, 200, this.put(resource, mergePatch(existing, recorded.body) as WireObject));
      }
      case 'DELETE':
        if (!existing) return notFound();
        bucket.delete(existing.metadata.name);
        if (resource === 'statefulsets') this.deletePods(existing);
        return json(response, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name, kind: resource } });
      default:
        return status(response, 405, 'MethodNotAllowed', `${recorded.method} is not supported`);
    }
  }

  /** What the StatefulSet controller does: one claim per template for ordinal 0, kept when the set goes. */
  private createVolumeClaims(statefulSet: WireObject): void {
    const spec = statefulSet.spec as { volumeClaimTemplates?: WireObject[] };
    for (const template of spec.volumeClaimTemplates ?? []) {
      const name = `${template.metadata.name}-${statefulSet.metadata.name}-0`;
      if (!this.get('persistentvolumeclaims', name)) {
        this.put('persistentvolumeclaims', { ...template, metadata: { ...template.metadata, name } });
      }
    }
  }

  /** Garbage collection of the set's pods. */
  private deletePods(statefulSet: WireObject): void {
    const selector = (statefulSet.spec as { selector?: { matchLabels?: Record<string, string> } }).selector?.matchLabels ?? {};
    for (const pod of this.list('pods')) {
      if (Object.entries(selector).every(([key, value]) => pod.metadata.labels?.[key] === value)) this.remove('pods', pod.metadata.name);
    }
  }
}

function matchesSelector(object: WireObject, selector: string | null): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [key = '', value] = term.split('=');
    const labels = object.metadata.labels ?? {};
    return value === undefined ? Object.hasOwn(labels, key) : labels[key] === value;
  });
}

/** RFC 7386. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const result: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function json(response: ServerResponse, code: number, body: unknown): void {
  response.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function status(response: ServerResponse, code: number, reason: string, message: string, details?: Record<string, unknown>): void {
  json(response, code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code });
}

/** The fields of a StatefulSet's spec the API server refuses to change. */
function sameImmutableFields(existing: WireObject, updated: WireObject): boolean {
  const fixed = (object: WireObject) => {
    const spec = object.spec as { selector?: unknown; serviceName?: unknown; volumeClaimTemplates?: unknown };
    return JSON.stringify([spec.selector, spec.serviceName, spec.volumeClaimTemplates]);
  };
  return fixed(existing) === fixed(updated);
}
