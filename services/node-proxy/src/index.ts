export { DEFAULT_FILTER_DIR, loadProxyConfig, proxyEnvironment } from './config';
export type { ProxyConfig } from './config';
export { PROXY_SERVICE_NAME, startNodeProxy } from './service';
export type { NodeProxy, NodeProxyOptions } from './service';
export { devCertificateFiles } from './tls/proxy-certificate';
export { checkRequest } from './json-rpc/json-rpc';
export { loadMethodLists, loadMethodPolicies, MethodPolicy } from './json-rpc/method-policy';
export type { MethodLists, Verdict } from './json-rpc/method-policy';
