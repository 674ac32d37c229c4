export { snapCoordinates } from './locationGrid.ts';
export { findProfileSummary, listPhotoNames, listShownPhotoNames } from './repository.ts';
export { activeRecentlyOf, activityBucket, type ActivityBucket } from './activity.ts';
