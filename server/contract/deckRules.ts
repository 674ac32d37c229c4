/**
 * The deck's constants the app needs before zod has loaded (issue 41): the first card of `/search` is drawn
 * by code that may import no schema, since a contract module's top-level `z.object(...)` calls pull zod
 * into the first load with them. `discovery.ts` builds its schemas from these.
 */

/** The deck's gender filter; Other too, so people of that gender can be looked for (and look for each other). */
export const searchGenders = ['Any', 'Male', 'Female', 'Other'] as const;

/** A like's message (issue 38): at most this many characters. */
export const likeMessageMaxLength = 200;

/** The deck's distance limit (`maxDistance`), whole kilometres: the slider's ends. */
export const maxDistanceRange = { min: 1, max: 500 } as const;

/** The age filter's bounds and the search's defaults when a filter is not given (`searchQuery`). */
export const ageRange = { min: 18, max: 100 } as const;
