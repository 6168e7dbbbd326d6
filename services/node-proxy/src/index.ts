export { loadProxyConfig, proxyEnvironment } from './config';
export type { ProxyConfig } from './config';
export { PROXY_SERVICE_NAME, startNodeProxy } from './service';
export type { NodeProxy, NodeProxyOptions } from './service';
export { devCertificateFiles } from './tls/proxy-certificate';
