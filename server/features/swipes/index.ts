export {
  countNewLikers,
  countNewMatches,
  isNewLiker,
  isUnannouncedMatch,
  likeCarriesMessage,
  markLikesSeen,
} from './repository.ts';
export { freeLikesPerDay } from './rules.ts';
