/**
 * The caps on what one client address (the IP Koa derives, with TRUST_PROXY counted from our own proxy's
 * hop) and one account may try in a day, in one place. All are counted by RateCounter (sliding windows,
 * atomic on both databases).
 *
 * Codes are six digits (a million values), each dies after 5 wrong tries, and an address gets at most 5 codes
 * an hour. Without these caps an account could be guessed at 5 × 5 × 24 = 600 times a day, and one client
 * could spray any number of accounts (an audit had 150 forgot and 150 reset tries from one address all
 * answered). With them:
 * - one account: 10 wrong codes a day, whatever the number of fresh codes: 10 in a million, 1e-5 a day;
 * - one client address: 30 wrong codes a day across all accounts, so spraying many accounts from one
 *   address takes 3e-5 accounts a day; a thousand addresses 0.03 a day. A wrong code is counted before it is
 *   checked and given back when right, so people who type their code correctly are never counted;
 * - reset requests: 30 a day from one client address (each may mail a code to a stranger's inbox), and an
 *   account's address gets at most 10 codes a day (5 an hour, as before).
 * The address caps sit far above what one household or office does; an address shared by a mobile carrier's
 * NAT is the case they are sized for (a shared address's people rarely mistype a code, and only then count).
 */
export const wrongCodesPerAccountPerDay = 10;
export const wrongCodesPerIpPerDay = 30;
export const resetRequestsPerIpPerDay = 30;
export const codesPerEmailPerDay = 10;

/**
 * Registrations from one client address: each makes an account and mails a code to any address it names
 * (an audit made 40 in 11 s). 20 an hour and 50 a day: far above a household's or an office's sign-ups,
 * yet a script gets 50 accounts (and 50 mails to strangers) a day per address instead of thousands an hour.
 */
export const registrationsPerIpPerHour = 20;
export const registrationsPerIpPerDay = 50;

export const day = 86_400;
export const hour = 3_600;
