import {
  cityCheckRequest,
  cityCheckResponse,
  getCityRequest,
  getCityResponse,
  type CityCheckResponse,
  type GetCityResponse,
} from '../../contract/location.ts';
import { languageFromAcceptLanguage, type Language } from '../../../locales/index.ts';
import { notFound } from '../../errors.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppContext, AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';
import { cityGeocoder, cityName, type CityGeocoder } from './geocoder.ts';

/** Spec section 8: the city-not-found hint suggests enabling geolocation instead. */
export const cityNotFound = () =>
  notFound(
    'city_not_found',
    'City not found. Check the name or allow access to your location to find your city automatically.',
  );

/**
 * Wizard step 2 and the edit-profile city field (spec sections 4, 7). Sign-in is required, verification is
 * not: the app sends unverified users to /verify anyway, and a lookup in a shipped data set reveals nothing
 * about anyone, so a stricter check would add nothing. The coordinates are used for the lookup only: never
 * stored and never logged (the request log has no bodies), as the location privacy rule of issue 4 asks.
 */
export function locationRoutes(
  router: AppRouter,
  _services: Services,
  geocoder: () => CityGeocoder = cityGeocoder,
): void {
  /** The account's language, else the browser's, else Russian (spec section 9). */
  const languageOf = (ctx: AppContext): Language =>
    ctx.state.auth?.language ?? languageFromAcceptLanguage(ctx.get('Accept-Language'));

  router.post('/get_city', (ctx) => {
    requireUser(ctx);
    const { latitude, longitude } = parse(getCityRequest, ctx.request.body);
    const city = geocoder().nearest(latitude, longitude);
    if (!city) throw cityNotFound();
    const body: GetCityResponse = { city: cityName(city, languageOf(ctx)), place_id: city.id };
    ctx.body = getCityResponse.parse(body);
  });

  router.post('/citycheck', (ctx) => {
    requireUser(ctx);
    const { citycheck } = parse(cityCheckRequest, ctx.request.body);
    const city = geocoder().findByName(citycheck);
    if (!city) throw cityNotFound();
    const body: CityCheckResponse = {
      city: cityName(city, languageOf(ctx)),
      place_id: city.id,
      coords: [city.lat, city.lon],
    };
    ctx.body = cityCheckResponse.parse(body);
  });
}
