import { z } from 'zod/mini';
import { profileIdField, userIdField } from './ids.ts';
import { profilePrompt, promptAnswersInput } from './prompts.ts';

/** Spec section 5 messages, shown as they are by the app. */
export const requiredFieldsMessage = 'Please fill in all required fields.';
export const minAgeMessage = 'Age must be at least 18 years.';
export const maxAgeMessage = 'Age must be at most 100 years.';
export const atLeastOnePhotoMessage = 'Please add at least one photo.';
export const maxPhotosMessage = 'You can add at most 6 photos.';

export const minAge = 18;
export const maxAge = 100;
export const maxPhotos = 6;
export const maxNameLength = 40;
export const maxBioLength = 500;

/** Gender at creation (spec: Male, Female); Other is offered on edit. */
export const creationGenders = ['Male', 'Female'] as const;
export const genders = ['Male', 'Female', 'Other'] as const;

/** `z.preprocess` of full zod (a transform piped into the schema), which zod/mini leaves out. */
const preprocess = <T extends z.ZodMiniType>(fn: (value: unknown) => unknown, schema: T) =>
  z.pipe(z.transform(fn), schema);

/** Multipart fields arrive as text: an empty field means "not given". */
const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const name = z
  .string({ error: requiredFieldsMessage })
  .check(
    z.trim(),
    z.minLength(1, requiredFieldsMessage),
    z.maxLength(maxNameLength, 'Name must be at most 40 characters.'),
  );
const age = preprocess(
  blankToUndefined,
  z.coerce
    .number({ error: requiredFieldsMessage })
    .check(z.int('Age must be a whole number.'), z.gte(minAge, minAgeMessage), z.lte(maxAge, maxAgeMessage)),
);
const city = z.string().check(z.trim(), z.maxLength(100, 'City must be at most 100 characters.'));
/**
 * The city as a place of the geocoder's data set (its id, from /api/get_city or /api/citycheck); `city` then
 * only keeps the text as typed. Multipart sends it as text.
 */
const placeId = preprocess(
  blankToUndefined,
  z.optional(
    z.coerce
      .number({ error: 'Unknown place' })
      .check(z.int('Unknown place'), z.gte(1, 'Unknown place'), z.lte(2_147_483_647, 'Unknown place')),
  ),
);
const bio = z.string().check(z.maxLength(maxBioLength, 'Bio must be at most 500 characters.'));
const latitude = preprocess(
  blankToUndefined,
  z.optional(z.coerce.number().check(z.gte(-90, 'Invalid latitude'), z.lte(90, 'Invalid latitude'))),
);
const longitude = preprocess(
  blankToUndefined,
  z.optional(z.coerce.number().check(z.gte(-180, 'Invalid longitude'), z.lte(180, 'Invalid longitude'))),
);

const bothOrNeither = (v: { latitude?: number | undefined; longitude?: number | undefined }) =>
  (v.latitude === undefined) === (v.longitude === undefined);
const coordinatesTogether = { message: 'Latitude and longitude go together', path: ['latitude'] };

export const createProfileFields = z
  .strictObject({
    name: preprocess(blankToUndefined, name),
    age,
    gender: preprocess(blankToUndefined, z.enum(creationGenders, { error: 'Gender must be Male or Female.' })),
    city: z.optional(city),
    place_id: placeId,
    bio: z.optional(bio),
    latitude,
    longitude,
    /** Optional; a JSON text in the multipart form (`[{"prompt_id": 1, "answer": "…"}]`). */
    prompts: preprocess(blankToUndefined, z.optional(promptAnswersInput)),
  })
  .check(z.refine(bothOrNeither, coordinatesTogether));
export type CreateProfileFields = z.infer<typeof createProfileFields>;

/** One of our photo names, as listed in `photos`. */
export const photoFileName = z.string().check(z.regex(/^[0-9a-f]{32}\.jpg$/, 'Unknown photo'));

export const photoEdits = z.strictObject({
  deletedPhotos: z._default(z.array(photoFileName).check(z.maxLength(maxPhotos)), []),
  /** How many new files come with the request (a count, or the client's list of their names). */
  newPhotos: z.optional(
    z.union([
      z.number().check(z.int(), z.gte(0), z.lte(maxPhotos)),
      z.array(z.string().check(z.maxLength(255))).check(z.maxLength(maxPhotos)),
    ]),
  ),
  /** The kept photos in their new order; new photos follow them. */
  order: z.optional(z.array(photoFileName).check(z.maxLength(maxPhotos))),
});
export type PhotoEdits = z.infer<typeof photoEdits>;

/** Field edits: every field optional, but a given field must be valid (name, city, age, gender non-empty). */
export const editProfileFields = z
  .strictObject({
    name: z.optional(name),
    age: preprocess((v) => (v === '' ? Number.NaN : v), z.optional(age)),
    gender: z.optional(z.enum(genders, { error: 'Gender must be Male, Female or Other.' })),
    city: z.optional(city.check(z.minLength(1, requiredFieldsMessage))),
    place_id: placeId,
    bio: z.optional(bio),
    latitude,
    longitude,
    /** The whole new list (a JSON text in a multipart form): `[]` clears it, leaving it out keeps it. */
    prompts: preprocess(blankToUndefined, z.optional(promptAnswersInput)),
  })
  .check(z.refine(bothOrNeither, coordinatesTogether));
export type EditProfileFields = z.infer<typeof editProfileFields>;

export const ownProfileResponse = z.object({
  id: profileIdField,
  /** The owner's account, not the profile. */
  user_id: userIdField,
  name: z.string(),
  age: z.number().check(z.int()),
  gender: z.enum(genders),
  preferred_gender: z.enum(['Male', 'Female', 'Other', 'Any']),
  bio: z.string(),
  /** In the reader's (the owner's) language when it is a known place. */
  city: z.string(),
  /** The place the city is (see `place_id` of the edit fields); null for a city typed as text only. */
  place_id: z.nullable(z.number().check(z.int())),
  /** The owner's own snapped coordinates; other people never see coordinates at all. */
  latitude: z.nullable(z.number()),
  longitude: z.nullable(z.number()),
  photos: z.array(z.string()),
  /** The answered prompts in order, the questions in the owner's language. */
  prompts: z.array(profilePrompt),
  isActive: z.boolean(),
  end_date: z.nullable(z.string()),
  /** The owner's selfie matched their photos (issue 40). */
  verified: z.boolean(),
  /** Names among `photos` the upload screen held for a moderator: shown to the owner as "under review", to nobody else. */
  under_review: z.array(z.string()),
});
export type OwnProfileResponse = z.infer<typeof ownProfileResponse>;

/** `userprofile` of /api/current_user: enough for the top bar and the menu. */
export const userProfileSummary = z.object({
  id: z.number().check(z.int()),
  name: z.string(),
  age: z.number().check(z.int()),
  /** The reader's own gender: the app addresses them by it ("напишите первой", i18next's _male/_female contexts). */
  gender: z.enum(genders),
  photo: z.nullable(z.string()),
});
export type UserProfileSummary = z.infer<typeof userProfileSummary>;
