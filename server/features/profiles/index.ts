export { snapCoordinates } from './locationGrid.ts';
export { findProfileSummary, listPhotoNames } from './repository.ts';
