export type { CardSearch } from './cardSearch.ts';
export { createCardSearch, searchEngines, type SearchEngine } from './engines.ts';
export { frontierMaxAgeMs } from './candidatePool.ts';
export { pointOf, shownDistanceKm } from './distance.ts';
export { searchPerMinute } from './rules.ts';
