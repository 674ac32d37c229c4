/**
 * A conversation's page size, free of zod: the app's chat calls travel with the deck's first load (the live
 * stream adds what arrives to the cache), which may import no schema (issue 41). `chat.ts` reads it too.
 */
export const defaultPageSize = 20;
