export { mainPhotoStillMatches } from './mainPhoto.ts';
export { PhotoVerificationService } from './service.ts';
