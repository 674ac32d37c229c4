/** Likes a free user may give per rolling 24 hours. Premium: no limit. */
export const freeLikesPerDay = 50;
export const likeWindowSeconds = 24 * 60 * 60;
