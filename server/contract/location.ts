import { z } from 'zod/mini';

/** POST /api/get_city: the browser's coordinates (spec section 7). */
export const getCityRequest = z.strictObject({
  latitude: z
    .number({ error: 'Latitude must be a number' })
    .check(z.gte(-90, 'Latitude must be between -90 and 90'), z.lte(90, 'Latitude must be between -90 and 90')),
  longitude: z
    .number({ error: 'Longitude must be a number' })
    .check(z.gte(-180, 'Longitude must be between -180 and 180'), z.lte(180, 'Longitude must be between -180 and 180')),
});
export type GetCityRequest = z.infer<typeof getCityRequest>;

/** `place_id`: the place's id, for create_profile/edit_profile, so each reader sees the city in their language. */
export const getCityResponse = z.object({ city: z.string(), place_id: z.number().check(z.int()) });
export type GetCityResponse = z.infer<typeof getCityResponse>;

/** POST /api/citycheck: a city name typed by hand in wizard step 2 (spec sections 4, 5). */
export const cityCheckRequest = z.strictObject({
  citycheck: z
    .string({ error: 'City is required' })
    .check(z.trim(), z.minLength(1, 'City is required'), z.maxLength(100, 'City name is too long')),
});
export type CityCheckRequest = z.infer<typeof cityCheckRequest>;

export const cityCheckResponse = z.object({
  city: z.string(),
  place_id: z.number().check(z.int()),
  /** [latitude, longitude] of the city centre. */
  coords: z.tuple([z.number(), z.number()]),
});
export type CityCheckResponse = z.infer<typeof cityCheckResponse>;
