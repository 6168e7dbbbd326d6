export { IMAGES, IMAGE_IDS, isImageId } from './images';
export type { ImageDefinition, ImageId } from './images';
