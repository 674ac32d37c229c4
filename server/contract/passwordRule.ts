/**
 * Spec section 5: letters, digits and @$!%*#?& only, at least 8, with a letter and a digit. Apart from
 * `accounts.ts` and free of zod: the sign-in chunk's password field checks it as the user types, and
 * importing the schemas beside it would put zod in /login's first load (issue 41).
 */
export const passwordRule = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d@$!%*#?&]{8,}$/;
