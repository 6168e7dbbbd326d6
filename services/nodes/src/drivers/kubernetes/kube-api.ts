import type * as k8s from '@kubernetes/client-node' with { 'resolution-mode': 'import' };

/** The official client (`@kubernetes/client-node`), an ES module: loaded with import(), which this CommonJS build keeps. */
export type KubernetesClientModule = typeof k8s;

export const loadKubernetesClient = (): Promise<KubernetesClientModule> => import('@kubernetes/client-node');

/** An API call that failed: `status` is the HTTP status (absent when no answer came: a timeout, a refused connection). */
export class KubernetesApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'KubernetesApiError';
  }
}

export const isNotFound = (error: unknown): boolean => error instanceof KubernetesApiError && error.status === 404;
export const isConflict = (error: unknown): boolean => error instanceof KubernetesApiError && error.status === 409;

/** One kind of namespaced object, with the calls the driver makes on it. */
export interface ObjectCalls<T> {
  kind: string;
  create(body: T): Promise<T>;
  read(name: string): Promise<T>;
  /** PUT: the whole object, with the `resourceVersion` it was read at. */
  replace(name: string, body: T): Promise<T>;
  delete(name: string): Promise<void>;
}

/** The calls the driver makes, in one namespace, each bounded by the request timeout. */
export interface KubeApi {
  namespace: string;
  secrets: ObjectCalls<k8s.V1Secret>;
  services: ObjectCalls<k8s.V1Service>;
  networkPolicies: ObjectCalls<k8s.V1NetworkPolicy>;
  statefulSets: ObjectCalls<k8s.V1StatefulSet>;
  persistentVolumeClaims: Pick<ObjectCalls<k8s.V1PersistentVolumeClaim>, 'kind' | 'delete'> & {
    list(labelSelector: string): Promise<k8s.V1PersistentVolumeClaim[]>;
    /** A JSON merge patch (RFC 7386) of the claim's labels. */
    patchLabels(name: string, labels: Record<string, string>): Promise<k8s.V1PersistentVolumeClaim>;
  };
  listPods(labelSelector: string): Promise<k8s.V1Pod[]>;
  podLog(name: string, container: string, tailLines: number): Promise<string>;
}

/** The client's create, read, replace and delete of one kind of namespaced object. */
interface NamespacedMethods<T> {
  create(request: { namespace: string; body: T }): Promise<T>;
  read(request: { name: string; namespace: string }): Promise<T>;
  replace(request: { name: string; namespace: string; body: T }): Promise<T>;
  delete(request: { name: string; namespace: string }): Promise<unknown>;
}

export interface KubeApiOptions {
  client: KubernetesClientModule;
  namespace: string;
  /** A kubeconfig file; unset: KubeConfig.loadFromDefault() (KUBECONFIG, ~/.kube/config, or the pod's service account). */
  kubeconfigFile?: string | undefined;
  requestTimeoutMs: number;
  /** Aborts every call under way (the driver's close). */
  signal: AbortSignal;
}

export function openKubeApi(options: KubeApiOptions): KubeApi {
  const { client, namespace } = options;
  const kubeConfig = new client.KubeConfig();
  if (options.kubeconfigFile) kubeConfig.loadFromFile(options.kubeconfigFile);
  else kubeConfig.loadFromDefault();
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new KubernetesApiError('the kubeconfig names no current cluster');
  const configuration = client.createConfiguration({
    baseServer: new client.ServerConfiguration(cluster.server, {}),
    authMethods: { default: kubeConfig },
    promiseMiddleware: [
      {
        pre: (context) => {
          context.setSignal(AbortSignal.any([options.signal, AbortSignal.timeout(options.requestTimeoutMs)]));
          return Promise.resolve(context);
        },
        post: (context) => Promise.resolve(context),
      },
    ],
  });
  const core = new client.CoreV1Api(configuration);
  const apps = new client.AppsV1Api(configuration);
  const networking = new client.NetworkingV1Api(configuration);
  const mergePatch = client.setHeaderOptions('Content-Type', client.PatchStrategy.MergePatch);

  const call = async <T>(action: string, request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (error) {
      throw apiError(action, namespace, options.signal.aborted ? undefined : options.requestTimeoutMs, error);
    }
  };
  const deleted = async (action: string, request: () => Promise<unknown>): Promise<void> => {
    await call(action, request);
  };
  /** The calls on one kind of object, through the client's namespaced methods for it. */
  const objectCalls = <T>(kind: string, methods: NamespacedMethods<T>): ObjectCalls<T> => ({
    kind,
    create: (body) => call(`create ${kind}`, () => methods.create({ namespace, body })),
    read: (name) => call(`read ${kind} ${name}`, () => methods.read({ name, namespace })),
    replace: (name, body) => call(`replace ${kind} ${name}`, () => methods.replace({ name, namespace, body })),
    delete: (name) => deleted(`delete ${kind} ${name}`, () => methods.delete({ name, namespace })),
  });

  return {
    namespace,
    secrets: objectCalls('Secret', {
      create: (request) => core.createNamespacedSecret(request),
      read: (request) => core.readNamespacedSecret(request),
      replace: (request) => core.replaceNamespacedSecret(request),
      delete: (request) => core.deleteNamespacedSecret(request),
    }),
    services: objectCalls('Service', {
      create: (request) => core.createNamespacedService(request),
      read: (request) => core.readNamespacedService(request),
      replace: (request) => core.replaceNamespacedService(request),
      delete: (request) => core.deleteNamespacedService(request),
    }),
    networkPolicies: objectCalls('NetworkPolicy', {
      create: (request) => networking.createNamespacedNetworkPolicy(request),
      read: (request) => networking.readNamespacedNetworkPolicy(request),
      replace: (request) => networking.replaceNamespacedNetworkPolicy(request),
      delete: (request) => networking.deleteNamespacedNetworkPolicy(request),
    }),
    statefulSets: objectCalls('StatefulSet', {
      create: (request) => apps.createNamespacedStatefulSet(request),
      read: (request) => apps.readNamespacedStatefulSet(request),
      replace: (request) => apps.replaceNamespacedStatefulSet(request),
      // Background: the pod goes after the StatefulSet, as kubectl delete does.
      delete: (request) => apps.deleteNamespacedStatefulSet({ ...request, propagationPolicy: 'Background' }),
    }),
    persistentVolumeClaims: {
      kind: 'PersistentVolumeClaim',
      // A patch body goes out as it is (the client does not serialize it): only plain label maps here.
      patchLabels: (name, labels) =>
        call(`label PersistentVolumeClaim ${name}`, () =>
          core.patchNamespacedPersistentVolumeClaim({ name, namespace, body: { metadata: { labels } } }, mergePatch),
        ),
      delete: (name) => deleted(`delete PersistentVolumeClaim ${name}`, () => core.deleteNamespacedPersistentVolumeClaim({ name, namespace })),
      list: async (labelSelector) =>
        (await call('list PersistentVolumeClaims', () => core.listNamespacedPersistentVolumeClaim({ namespace, labelSelector }))).items,
    },
    listPods: async (labelSelector) => (await call('list Pods', () => core.listNamespacedPod({ namespace, labelSelector }))).items,
    podLog: (name, container, tailLines) => call(`read the log of Pod ${name}`, () => core.readNamespacedPodLog({ name, namespace, container, tailLines })),
  };
}

/** A clear error from whatever the client threw: the API's own Status message, a 403 that names RBAC, or a timeout. */
/** `timeoutMs` is undefined when the driver itself aborted the call (it closed). */
function apiError(action: string, namespace: string, timeoutMs: number | undefined, error: unknown): KubernetesApiError {
  if (error instanceof KubernetesApiError) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'number' ? error.code : undefined;
  if (code !== undefined) {
    const status = statusBody(error);
    const detail = status?.message ?? (error instanceof Error ? error.message : String(error));
    if (code === 403) {
      return new KubernetesApiError(
        `the nodes service may not ${action} in namespace ${namespace} (403 Forbidden: ${detail}); give its service account a Role there`,
        code,
        status?.reason,
      );
    }
    return new KubernetesApiError(`could not ${action} in namespace ${namespace}: ${code} ${status?.reason ?? ''} ${detail}`.trim(), code, status?.reason);
  }
  const name = error instanceof Error ? error.name : '';
  if (name === 'AbortError' || name === 'TimeoutError') {
    return new KubernetesApiError(
      timeoutMs === undefined ? `could not ${action}: the driver closed` : `could not ${action}: the Kubernetes API did not answer within ${timeoutMs} ms`,
    );
  }
  return new KubernetesApiError(`could not ${action}: ${error instanceof Error ? error.message : String(error)}`);
}

/** The `Status` object the API answers an error with, when there is one. */
function statusBody(error: unknown): { message?: string; reason?: string } | undefined {
  const body = typeof error === 'object' && error !== null && 'body' in error ? error.body : undefined;
  let parsed: unknown = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return body.trim() === '' ? undefined : { message: body.trim() };
    }
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { message, reason } = parsed as { message?: unknown; reason?: unknown };
  return { ...(typeof message === 'string' ? { message } : {}), ...(typeof reason === 'string' ? { reason } : {}) };
}
