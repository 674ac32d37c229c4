export { mainPhotoStillMatches, photoDescriptors } from './mainPhoto.ts';
export { PhotoVerificationService } from './service.ts';
