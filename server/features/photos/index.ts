export { DiskPhotoStore } from './diskPhotoStore.ts';
export { maxPhotoBytes, photoTooLarge, processPhoto, reencodeForCropping } from './photoPipeline.ts';
export { type PhotoStore, storedNamesOf, type StoredPhoto } from './photoStore.ts';
