export { type MyProfile, profileRequired, requireMyProfile } from './myProfile.ts';
export {
  endMatch,
  findLiveMatch,
  findMyProfile,
  findSwipe,
  findUserOfProfile,
  isBlockedEitherWay,
  listLiveMatchPartners,
  listUnseenLikeTargets,
  lockPair,
  notBlockedWith,
  pair,
} from './repository.ts';
