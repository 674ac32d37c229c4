import { z } from 'zod';
import { profileIdField, userIdField } from './ids.ts';

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

/** Multipart fields arrive as text: an empty field means "not given". */
const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const name = z.string({ error: requiredFieldsMessage }).trim().min(1, requiredFieldsMessage).max(maxNameLength, 'Name must be at most 40 characters.');
const age = z.preprocess(
  blankToUndefined,
  z.coerce.number({ error: requiredFieldsMessage }).int('Age must be a whole number.').min(minAge, minAgeMessage).max(maxAge, maxAgeMessage),
);
const city = z.string().trim().max(100, 'City must be at most 100 characters.');
const bio = z.string().max(maxBioLength, 'Bio must be at most 500 characters.');
const latitude = z.preprocess(blankToUndefined, z.coerce.number().min(-90, 'Invalid latitude').max(90, 'Invalid latitude').optional());
const longitude = z.preprocess(blankToUndefined, z.coerce.number().min(-180, 'Invalid longitude').max(180, 'Invalid longitude').optional());

const bothOrNeither = (v: { latitude?: number | undefined; longitude?: number | undefined }) => (v.latitude === undefined) === (v.longitude === undefined);
const coordinatesTogether = { message: 'Latitude and longitude go together', path: ['latitude'] };

export const createProfileFields = z
  .strictObject({
    name: z.preprocess(blankToUndefined, name),
    age,
    gender: z.preprocess(blankToUndefined, z.enum(creationGenders, { error: 'Gender must be Male or Female.' })),
    city: city.optional(),
    bio: bio.optional(),
    latitude,
    longitude,
  })
  .refine(bothOrNeither, coordinatesTogether);
export type CreateProfileFields = z.infer<typeof createProfileFields>;

/** One of our photo names, as listed in `photos`. */
export const photoFileName = z.string().regex(/^[0-9a-f]{32}\.jpg$/, 'Unknown photo');

export const photoEdits = z.strictObject({
  deletedPhotos: z.array(photoFileName).max(maxPhotos).default([]),
  /** How many new files come with the request (a count, or the client's list of their names). */
  newPhotos: z.union([z.number().int().min(0).max(maxPhotos), z.array(z.string().max(255)).max(maxPhotos)]).optional(),
  /** The kept photos in their new order; new photos follow them. */
  order: z.array(photoFileName).max(maxPhotos).optional(),
});
export type PhotoEdits = z.infer<typeof photoEdits>;

/** Field edits: every field optional, but a given field must be valid (name, city, age, gender non-empty). */
export const editProfileFields = z
  .strictObject({
    name: name.optional(),
    age: z.preprocess((v) => (v === '' ? Number.NaN : v), age.optional()),
    gender: z.enum(genders, { error: 'Gender must be Male, Female or Other.' }).optional(),
    city: city.min(1, requiredFieldsMessage).optional(),
    bio: bio.optional(),
    latitude,
    longitude,
  })
  .refine(bothOrNeither, coordinatesTogether);
export type EditProfileFields = z.infer<typeof editProfileFields>;

export const ownProfileResponse = z.object({
  id: profileIdField,
  /** The owner's account, not the profile. */
  user_id: userIdField,
  name: z.string(),
  age: z.number().int(),
  gender: z.enum(genders),
  preferred_gender: z.enum(['Male', 'Female', 'Any']),
  bio: z.string(),
  city: z.string(),
  /** The owner's own snapped coordinates; other people never see coordinates at all. */
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  photos: z.array(z.string()),
  isActive: z.boolean(),
  end_date: z.string().nullable(),
});
export type OwnProfileResponse = z.infer<typeof ownProfileResponse>;

/** `userprofile` of /api/current_user: enough for the top bar and the menu. */
export const userProfileSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  photo: z.string().nullable(),
});
export type UserProfileSummary = z.infer<typeof userProfileSummary>;
