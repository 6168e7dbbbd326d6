export { IMAGES, IMAGE_IDS, USER_IMAGE_IDS, VALIDATOR_IMAGE_IDS, isImageId, validatorImage } from './images';
export type { ImageDefinition, ImageId, UserImageId, ValidatorImageId } from './images';
export { avalancheNodeId, avalancheNodeIdFromPem, cb58Decode, cb58Encode, isAvalancheNodeId } from './avalanche-node-id';
export { DEV_NETWORKS, devNetworkOf, networkLabel, networkWord } from './networks';
export type { NetworkOf } from './networks';
export { LOOPBACK_HOST, NODE_PLACEHOLDER, nodeEndpoints, proxyAddressesOf, tokenUrls } from './endpoints';
export type { EndpointPorts, InterfaceUrls, NodeEndpoints, ProxyAddresses } from './endpoints';
