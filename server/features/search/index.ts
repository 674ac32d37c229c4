export { frontierMaxAgeMs } from './candidatePool.ts';
export { pointOf, shownDistanceKm } from './distance.ts';
export { searchPerMinute } from './rules.ts';
