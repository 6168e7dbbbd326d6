export { createKubernetesDriver, KubernetesDriver } from './kubernetes-driver';
export { defaultCatalogue, parseCatalogue } from './catalogue';
export type { NodeCatalogue } from './catalogue';
export { KubernetesApiError } from './kube-api';
export type { KubernetesClientModule } from './kube-api';
export { nodeManifests } from './manifests';
export type { ManifestSettings, NodeManifestInput, NodeManifests } from './manifests';
export { parseLabelSelector } from './names';
export type { KubernetesDriverOptions } from './options';
