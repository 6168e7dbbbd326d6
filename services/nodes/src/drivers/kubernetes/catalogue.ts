import { z } from 'zod';
import { IMAGE_IDS, type ImageId } from '@cloud/chains';
import catalogueFile from './node-images.json';

const quantities = z.object({ cpu: z.string().min(1), memory: z.string().min(1) });

const resourceClass = z.object({
  requests: quantities,
  limits: quantities,
  /** Arguments this size adds (a larger cache for a larger node). */
  args: z.array(z.string()).default([]),
});

const portName = z.string().regex(/^[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?$/, 'an IANA service name (at most 15 characters)');

const containerSchema = z.object({
  name: z.string().regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/),
  software: z.string().min(1),
  args: z.array(z.string()),
  /** Peer-to-peer ports, open to the world by the node's NetworkPolicy. */
  p2pPorts: z.array(z.object({ name: portName, port: z.number().int().min(1).max(65535), protocol: z.enum(['TCP', 'UDP']) })),
  /** How Kubernetes tells the node's RPC answers (the Service routes only to a ready pod); none for a sidecar. */
  readiness: z.union([z.object({ exec: z.array(z.string()).min(1) }), z.object({ httpGet: z.object({ path: z.string().startsWith('/') }) })]).optional(),
  resources: z.object({ standard: resourceClass, large: resourceClass }),
});

const imageSchema = z.object({
  /** The port of the node's JSON-RPC (and REST and WebSocket) in the pod and on its Service. */
  rpcPort: z.number().int().min(1).max(65535),
  /** Size of the node's volume (a Kubernetes quantity). */
  storage: z.string().regex(/^\d+(Mi|Gi|Ti)$/),
  /** The first container runs the node software itself: its RPC port, its log, its probes. */
  containers: z.array(containerSchema).min(1),
});

const softwareSchema = z.object({
  /** `<name>-<version>`, what `GET /chains` reports. */
  label: z.string().regex(/^[a-z0-9-]+-\d+(\.\d+)+$/),
  /** Registry, repository and tag. */
  image: z.string().regex(/^[a-z0-9.-]+\/[a-z0-9._/-]+:[A-Za-z0-9._-]+$/, 'registry/repository:tag'),
  /** Who publishes the image, for whoever bumps a version. */
  source: z.string().min(1),
  command: z.array(z.string()).min(1),
});

const catalogueSchema = z
  .object({
    software: z.record(z.string(), softwareSchema),
    images: z.record(z.string(), imageSchema),
  })
  .superRefine((catalogue, context) => {
    for (const [image, entry] of Object.entries(catalogue.images)) {
      if (!IMAGE_IDS.includes(image as ImageId)) context.addIssue({ code: 'custom', message: `unknown image ${image}`, path: ['images', image] });
      for (const container of entry.containers) {
        if (!catalogue.software[container.software]) {
          context.addIssue({ code: 'custom', message: `unknown software ${container.software}`, path: ['images', image] });
        }
      }
    }
  });

export type NodeCatalogue = z.infer<typeof catalogueSchema>;
export type CatalogueImage = z.infer<typeof imageSchema>;
export type CatalogueContainer = z.infer<typeof containerSchema>;
export type CatalogueSoftware = z.infer<typeof softwareSchema>;

/** Checks a catalogue; a bad one stops the driver naming what is wrong. */
export function parseCatalogue(value: unknown): NodeCatalogue {
  const parsed = catalogueSchema.safeParse(value);
  if (!parsed.success) throw new Error(`invalid kubernetes node catalogue: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** `node-images.json`: the images and versions the kubernetes driver runs. */
export function defaultCatalogue(): NodeCatalogue {
  return parseCatalogue(catalogueFile);
}

/** The catalogue's entry for an image, or undefined when the catalogue does not run it. */
export function catalogueImage(catalogue: NodeCatalogue, image: ImageId): CatalogueImage | undefined {
  return Object.hasOwn(catalogue.images, image) ? catalogue.images[image] : undefined;
}

export function catalogueSoftware(catalogue: NodeCatalogue, container: CatalogueContainer): CatalogueSoftware {
  const software = catalogue.software[container.software];
  if (!software) throw new Error(`unknown software ${container.software}`); // parseCatalogue rules this out
  return software;
}
