export { markMatch } from './marks.ts';
export { badgeCountsFor, matchesStillToAnnounce, noBadges } from './repository.ts';
