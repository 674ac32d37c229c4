export { snapCoordinates } from './locationGrid.ts';
export { findProfileSummary, listShownPhotoNames } from './repository.ts';
export { activeRecentlyOf, activityBucket, type ActivityBucket } from './activity.ts';
