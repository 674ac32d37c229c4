export { countNewLikers, countNewMatches, isNewLiker, isUnannouncedMatch, markLikesSeen } from './repository.ts';
export { freeLikesPerDay } from './rules.ts';
