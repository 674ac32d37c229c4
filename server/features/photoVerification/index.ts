export { mainPhotoStillMatches, photoDescriptors } from './mainPhoto.ts';
export { insertConsentedFace, setVerified } from './repository.ts';
export { PhotoVerificationService } from './service.ts';
