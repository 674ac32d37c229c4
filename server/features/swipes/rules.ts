/** Likes a free user may give per rolling 24 hours. Premium: no limit. */
export const freeLikesPerDay = 50;
export const likeWindowSeconds = 24 * 60 * 60;
/** Likes with a message a free user may give per rolling 24 hours (issue 38). Premium: no limit. */
export const freeLikeMessagesPerDay = 3;
/** Undos a free user may make per rolling 24 hours. Premium: no limit. */
export const freeUndosPerDay = 1;
/** Only a swipe this recent can be taken back. */
export const undoWithinSeconds = 10 * 60;
