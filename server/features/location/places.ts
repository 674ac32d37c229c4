import type { Language } from '../../../locales/index.ts';
import { badRequest } from '../../errors.ts';
import { cityGeocoder, cityName, type CityGeocoder } from './geocoder.ts';

/**
 * A profile's city as stored (issue #20, point 5): a place of the city data set (its GeoNames id) named in
 * each reader's language, or, for a place the data set does not know, the text as typed.
 */
export interface StoredCity {
  city: string;
  place_id: number | null;
}

export const unknownPlace = () =>
  badRequest('unknown_place', 'Unknown place. Choose a city from the suggestions or type its name.');

/** The city as one reader should see it: the place's name in their language, else the typed text. */
export function cityForReader(stored: StoredCity, language: Language, geocoder: CityGeocoder = cityGeocoder()): string {
  const place = stored.place_id === null ? null : geocoder.findById(stored.place_id);
  return place ? cityName(place, language) : stored.city;
}

/**
 * What to store for a city a person gave: a place id chosen from the geocoder's answers wins (an id the data
 * set does not hold is refused); a typed name becomes the place it names, when the data set knows it. The
 * typed text is kept as the fallback; with only an id, the English name is. Undefined when neither is given.
 */
export function storedCity(
  given: { city?: string | undefined; place_id?: number | undefined },
  geocoder: CityGeocoder = cityGeocoder(),
): StoredCity | undefined {
  const typed = given.city?.trim() ?? '';
  if (given.place_id !== undefined) {
    const place = geocoder.findById(given.place_id);
    if (!place) throw unknownPlace();
    return { city: typed || place.en, place_id: place.id };
  }
  if (given.city === undefined) return undefined;
  return { city: typed, place_id: typed ? (geocoder.findByName(typed)?.id ?? null) : null };
}
