import { z } from 'zod/mini';

/**
 * The prompts a profile may answer (issue 38): stable ids, never reused, and the key of each text under
 * `prompts` in locales/*.json (server-side only: readers get the text in their language from the API).
 * A prompt taken out of the list must keep its id retired: stored answers to it are then skipped.
 */
export const promptCatalog = [
  { id: 1, key: 'idealWeekend' },
  { id: 2, key: 'lookingFor' },
  { id: 3, key: 'surpriseMe' },
  { id: 4, key: 'simplePleasures' },
  { id: 5, key: 'greenFlag' },
  { id: 6, key: 'dealBreaker' },
  { id: 7, key: 'twoTruthsAndALie' },
  { id: 8, key: 'unpopularOpinion' },
  { id: 9, key: 'geekOut' },
  { id: 10, key: 'firstDate' },
  { id: 11, key: 'bestTravel' },
  { id: 12, key: 'comfortFood' },
  { id: 13, key: 'lifeGoal' },
  { id: 14, key: 'laughAt' },
  { id: 15, key: 'sundayMorning' },
  { id: 16, key: 'learning' },
  { id: 17, key: 'weirdFact' },
  { id: 18, key: 'typicalEvening' },
  { id: 19, key: 'friendsDescribe' },
  { id: 20, key: 'proudOf' },
  { id: 21, key: 'recommend' },
  { id: 22, key: 'musicNow' },
  { id: 23, key: 'bookOrFilm' },
  { id: 24, key: 'wontShutUpAbout' },
  { id: 25, key: 'valueMost' },
  { id: 26, key: 'perfectDay' },
  { id: 27, key: 'dreamTrip' },
  { id: 28, key: 'together' },
  { id: 29, key: 'myTalent' },
  { id: 30, key: 'convinceMe' },
  { id: 31, key: 'bucketList' },
  { id: 32, key: 'childhood' },
] as const;

export type PromptKey = (typeof promptCatalog)[number]['key'];
export const maxPrompts = 3;
export const maxPromptAnswerLength = 200;
export const tooManyPromptsMessage = 'You can answer at most 3 prompts.';
export const unknownPromptMessage = 'Unknown prompt';
export const repeatedPromptMessage = 'Each prompt can be answered once.';
export const promptAnswerMessage = 'An answer must be 1 to 200 characters.';

const knownPromptIds: ReadonlySet<number> = new Set(promptCatalog.map((p) => p.id));

/** NUL and lone surrogates: a JSON text field (`prompts` of a multipart form) can spell them as escapes. */
const unstorableText = new RegExp('\\0|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]');

const promptAnswerInput = z.strictObject({
  prompt_id: z
    .number({ error: unknownPromptMessage })
    .check(z.refine((id) => knownPromptIds.has(id), unknownPromptMessage)),
  answer: z.string({ error: promptAnswerMessage }).check(
    z.trim(),
    z.minLength(1, promptAnswerMessage),
    z.maxLength(maxPromptAnswerLength, promptAnswerMessage),
    z.refine((text) => !unstorableText.test(text), 'Text must not contain NUL or broken Unicode characters'),
  ),
});

/**
 * The whole list of a profile's prompts, in display order (the first one is shown over the card's photo).
 * Multipart forms send it as a JSON text; an empty list clears them.
 */
export const promptAnswersInput = z.pipe(
  z.transform((value: unknown) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return 'not json';
    }
  }),
  z.array(promptAnswerInput, { error: 'prompts must be a list of {prompt_id, answer}' }).check(
    z.maxLength(maxPrompts, tooManyPromptsMessage),
    z.refine((list) => new Set(list.map((p) => p.prompt_id)).size === list.length, repeatedPromptMessage),
  ),
);
export type PromptAnswersInput = z.infer<typeof promptAnswersInput>;

/** One answered prompt as every reader gets it: the question in the reader's language. */
export const profilePrompt = z.object({
  prompt_id: z.number().check(z.int()),
  question: z.string(),
  answer: z.string(),
});
export type ProfilePrompt = z.infer<typeof profilePrompt>;

/** `GET /api/prompts`: every prompt there is, in the reader's language. */
export const promptListResponse = z.array(z.object({ id: z.number().check(z.int()), text: z.string() }));
export type PromptListResponse = z.infer<typeof promptListResponse>;
