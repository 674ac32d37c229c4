export { mainPhotoStillMatches, photoDescriptors } from './mainPhoto.ts';
export { insertConsentedFace } from './repository.ts';
export { PhotoVerificationService } from './service.ts';
