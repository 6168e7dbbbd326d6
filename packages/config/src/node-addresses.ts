import { z } from 'zod';
import { booleanFlag } from './common';

/**
 * Where users reach hosted nodes: read alike by the node-proxy (what it serves) and by the nodes
 * and staking services (the addresses they print, `@cloud/chains` `nodeEndpoints`), so one set of
 * variables makes both agree.
 */
export const nodeAddressEnvironment = z.object({
  /** Nodes are named `<nodeId>.<NODE_DOMAIN>` (runtime contract): the Host and TLS name the proxy routes by. */
  NODE_DOMAIN: z
    .string()
    .regex(/^(?=.{1,200}$)([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, 'a lower-case DNS name')
    .default('nodes.localhost'),
  /** `off`: plain HTTP on the chain ports (TLS ended by an ingress in front); every printed address says http. */
  PROXY_TLS: z.enum(['on', 'off']).default('on'),
  /**
   * With TLS on, also answer plain HTTP from loopback callers on the same ports, for clients that
   * cannot speak TLS (litecoin-cli); callers from elsewhere are told to use https.
   */
  PROXY_LOOPBACK_HTTP: booleanFlag(true),
  /**
   * The scheme and host of the printed node addresses, for an ingress with a real certificate:
   * `https://{node}.nodes.example.com` (wildcard DNS; `{node}` becomes the node's id) or
   * `https://rpc.example.com` (one host; the proxy routes by credential). Each chain keeps its port.
   * Unset: `https://127.0.0.1` (http with PROXY_TLS=off).
   */
  PUBLIC_NODE_URL: z
    .string()
    .optional()
    .superRefine((value, context) => {
      const problem = value === undefined ? undefined : publicNodeUrlProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .transform((value) => value?.replace(/\/$/, '')),
});

export type NodeAddressEnvironment = z.infer<typeof nodeAddressEnvironment>;

/** Why a PUBLIC_NODE_URL cannot be used, or undefined when it can. */
export function publicNodeUrlProblem(text: string): string | undefined {
  const match = /^(https?):\/\/([^/?#@:]+)\/?$/i.exec(text);
  if (!match) return 'must be http(s)://host with no port (each chain keeps its own), path or credentials, e.g. https://{node}.nodes.example.com';
  const host = match[2]!;
  if (host.includes('{node}') && !host.startsWith('{node}.')) return '{node} can only be the first label of the host';
  if (!/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i.test(host.replace('{node}', 'node')))
    return `${host} is not a host name or IPv4 address`;
  return undefined;
}
