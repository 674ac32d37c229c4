export { mainPhotoStillMatches, photoDescriptors } from './mainPhoto.ts';
export { insertConsentedFace, setVerified } from './repository.ts';
export { PhotoVerificationService, selfieFileNames } from './service.ts';
