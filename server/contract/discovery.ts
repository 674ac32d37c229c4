import { z } from 'zod/mini';
import { profileIdField, profileRowId } from './ids.ts';
import { profilePrompt } from './prompts.ts';
import { usernameShareState } from './usernameShares.ts';
import { ageRange, likeMessageMaxLength, maxDistanceRange, searchGenders } from './deckRules.ts';

export { likeMessageMaxLength, maxDistanceRange, searchGenders };
export const reportReasons = ['fake', 'spam', 'offensive', 'underage', 'other'] as const;

const profileId = profileRowId('profile_id');

const maxDistanceMessage = `maxDistance must be a whole number of kilometres from ${maxDistanceRange.min} to ${maxDistanceRange.max}`;

/**
 * How recently someone was active, coarse on purpose (nothing finer than a day leaves the server): 'today'
 * (the last 24 hours), 'week' (the last 7 days), null when longer ago, or when they are in private mode or
 * turned it off (`show_activity`).
 */
export const activeRecently = z.nullable(z.enum(['today', 'week']));
export type ActiveRecently = z.infer<typeof activeRecently>;

export const searchQuery = z
  .strictObject({
    ageMin: z._default(z.coerce.number().check(z.int(), z.gte(ageRange.min), z.lte(ageRange.max)), ageRange.min),
    ageMax: z._default(z.coerce.number().check(z.int(), z.gte(ageRange.min), z.lte(ageRange.max)), ageRange.max),
    gender: z._default(z.enum(searchGenders), 'Any'),
    /**
     * The farthest a card may be, whole kilometres (1-500; a card exactly this far is shown: its distance is
     * measured as the card's `distance` is, before rounding). Absent: no limit.
     */
    maxDistance: z.optional(
      z.coerce
        .number(maxDistanceMessage)
        .check(
          z.int(maxDistanceMessage),
          z.gte(maxDistanceRange.min, maxDistanceMessage),
          z.lte(maxDistanceRange.max, maxDistanceMessage),
        ),
    ),
    /** Only people whose selfie matched their photos (issue 40); free for everyone. 'true' or 'false'. */
    verifiedOnly: z.optional(
      z.pipe(
        z.enum(['true', 'false'], 'verifiedOnly must be true or false'),
        z.transform((v) => v === 'true'),
      ),
    ),
    /** Profiles the app already holds (the card on screen, the prefetched one): never answered again. */
    exclude: z._default(
      z.pipe(
        z.string().check(z.maxLength(200), z.regex(/^(\d+(,\d+)*)?$/, 'exclude must be comma-separated profile ids')),
        z.transform((v) => (v ? v.split(',').map(Number).slice(0, 20) : [])),
      ),
      [],
    ),
  })
  .check(z.refine((q) => q.ageMin <= q.ageMax, { message: 'ageMin must not exceed ageMax', path: ['ageMin'] }));
export type SearchQuery = z.infer<typeof searchQuery>;

export const profileIdBody = z.strictObject({ profile_id: profileId });

/** A like's message: the chat's text rules (trimmed, not empty), but short, as a first line is. */
export const likeBody = z.strictObject({
  profile_id: profileId,
  message: z.optional(
    z
      .string({ error: 'Message must be text' })
      .check(
        z.trim(),
        z.minLength(1, 'Message is empty'),
        z.maxLength(likeMessageMaxLength, `Message must be at most ${likeMessageMaxLength} characters.`),
      ),
  ),
});
export type LikeBody = z.infer<typeof likeBody>;

/** `POST /api/undo` takes nothing: it is always the caller's newest swipe. */
export const undoBody = z.strictObject({});

/** `POST /api/undo`: the person whose card comes back (the swipe on them was taken back). */
export const undoResponse = z.object({ profile_id: profileIdField });
export type UndoResponse = z.infer<typeof undoResponse>;
export const profileIdQuery = z.strictObject({ profile_id: profileId });

export const reportBody = z.strictObject({
  profile_id: profileId,
  reason: z.enum(reportReasons, { error: 'Choose a reason: fake, spam, offensive, underage or other' }),
  comment: z.optional(z.string().check(z.trim(), z.maxLength(1000, 'Comment must be at most 1000 characters.'))),
});

/** Spec "search result profile". */
export const searchResult = z.object({
  /** The spec names it `user_id`, but it is the profile's id (`profiles.id`, the same as `profile_id`, the one /api/like takes), not the account's. */
  user_id: profileIdField,
  profile_id: profileIdField,
  name: z.string(),
  age: z.number().check(z.int()),
  city: z.string(),
  gender: z.string(),
  bio: z.string(),
  /** Whole kilometres between grid cells, never below 1; null when either side has no location. */
  distance: z.nullable(z.number().check(z.int(), z.gte(1))),
  /** Comma-separated photo file names (spec). */
  photo: z.string(),
  /** Their answered prompts in order (the card shows the first), the questions in the reader's language. */
  prompts: z.array(profilePrompt),
  /** What they wrote with their like to the caller: such a liker is the deck's next card, the message over it. */
  message: z.optional(z.string()),
  active_recently: activeRecently,
  /** A selfie matched their photos (issue 40): the card's badge. */
  verified: z.boolean(),
});
export type SearchResult = z.infer<typeof searchResult>;
/** `GET /api/search`'s answer: the next person, or the spec's flag for a caller without a profile (404: nobody left). */
export const searchResponse = z.union([searchResult, z.object({ userprofile: z.literal(false) })]);

/** The other person, for the match overlay only: a swipe that makes no match names nobody. */
export const matchedProfile = z.object({ id: profileIdField, name: z.string(), photo: z.nullable(z.string()) });
export type MatchedProfile = z.infer<typeof matchedProfile>;

export const likeResponse = z.discriminatedUnion('match', [
  z.object({ match: z.literal(true), profile: matchedProfile }),
  z.object({ match: z.literal(false) }),
]);
export type LikeResponse = z.infer<typeof likeResponse>;

/**
 * Match and liker list items. Free users see likers blurred: no id, name or age, a blurred photo; but a
 * liker who wrote (`message`) is shown whole to everyone, on top of the list: writing is asking to be seen.
 */
export const personListItem = z.object({
  id: z.nullable(z.number().check(z.int())),
  name: z.nullable(z.string()),
  age: z.nullable(z.number().check(z.int())),
  latest_photo: z.nullable(z.string()),
  blurred: z.optional(z.boolean()),
  message: z.optional(z.string()),
});
export type PersonListItem = z.infer<typeof personListItem>;
/** `GET /api/matches`, `GET /api/likes`. */
export const personList = z.array(personListItem);

export const usersProfileResponse = z.object({
  users_profile: z.object({
    id: z.number().check(z.int()),
    name: z.string(),
    age: z.number().check(z.int()),
    city: z.string(),
    gender: z.string(),
    bio: z.string(),
    photos: z.array(z.string()),
    distance: z.nullable(z.number().check(z.int(), z.gte(1))),
    prompts: z.array(profilePrompt),
    /** A match's profile only: the @username swap (issue 39); the username once both have shared, else null. */
    username_share: z.optional(usernameShareState),
    telegram_username: z.optional(z.nullable(z.string())),
    active_recently: activeRecently,
    /** A selfie matched their photos (issue 40): the profile's badge. */
    verified: z.boolean(),
  }),
});
export type UsersProfileResponse = z.infer<typeof usersProfileResponse>;

export const settingsBody = z.strictObject({
  private_mode: z.optional(z.boolean()),
  /** The bot's match, message and like notifications. */
  notifications: z.optional(z.boolean()),
  /** Match and message e-mails (sent to users without Telegram). */
  email_notifications: z.optional(z.boolean()),
  /** Web Push to the browsers the person subscribed (match, message, like). */
  push_notifications: z.optional(z.boolean()),
  /** The deck's gender filter as the stored preference the other side's reciprocal rule reads. */
  preferred_gender: z.optional(z.enum(searchGenders)),
  /** Others see how recently the person was active (`active_recently`); off: null for everyone. */
  show_activity: z.optional(z.boolean()),
});
export type SettingsChanges = z.infer<typeof settingsBody>;

/** `GET|POST /api/settings`: the menu's server-side switches and the gender preference (on the profile). */
export const settingsResponse = z.object({
  private_mode: z.boolean(),
  notifications: z.boolean(),
  email_notifications: z.boolean(),
  push_notifications: z.boolean(),
  preferred_gender: z.enum(searchGenders),
  /** Others see `active_recently` (default true); private mode hides it as well. */
  show_activity: z.boolean(),
  /** A Telegram account is linked: without one the bot's notifications (`notifications`) reach nobody. */
  telegram_linked: z.boolean(),
});
export type SettingsResponse = z.infer<typeof settingsResponse>;
