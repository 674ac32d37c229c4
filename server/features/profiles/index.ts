export { snapCoordinates } from './locationGrid.ts';
export { findProfileSummary, listPhotoNames } from './repository.ts';
export { activeRecentlyOf, activityBucket, type ActivityBucket } from './activity.ts';
