import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { cityAt } from '../api/queries/profiles.ts';
import type { TranslationKey } from '../i18n.ts';
import { errorText } from './errorText.ts';

/** Why the browser gave no position: no API, the person said no, or it failed (timeout, no fix). */
export type LocateFailure = 'unsupported' | 'denied' | 'failed';

export class LocateError extends Error {
  constructor(readonly reason: LocateFailure) {
    super(`geolocation ${reason}`);
  }
}

/** The i18n key of each failure (spec section 8's messages). */
const failureText: Record<LocateFailure, TranslationKey> = {
  unsupported: 'app.errors.geolocationUnsupported',
  denied: 'app.errors.locationDenied',
  failed: 'app.errors.cityFailed',
};

/** What to tell the person when finding their city failed, at the browser or at the server. */
export function locateErrorText(t: TFunction, failure: unknown): string {
  return failure instanceof LocateError
    ? t(failureText[failure.reason])
    : errorText(t, failure, 'app.errors.cityFailed');
}

/** The city where the person is: the browser's position, then the server's name for the place. */
export async function cityHere(): Promise<{ city: string; placeId: number; coords: [number, number] }> {
  const coords = await currentPosition();
  const place = await cityAt(coords[0], coords[1]);
  return { city: place.city, placeId: place.place_id, coords };
}

/** The browser's position, as [latitude, longitude]; a fix up to ten minutes old will do. */
export function currentPosition(): Promise<[number, number]> {
  if (!('geolocation' in navigator)) return Promise.reject(new LocateError('unsupported'));
  return new Promise((resolve, reject) => {
    navigator.geolocation.getCurrentPosition(
      (position) => resolve([position.coords.latitude, position.coords.longitude]),
      (failure) => reject(new LocateError(failure.code === failure.PERMISSION_DENIED ? 'denied' : 'failed')),
      { timeout: 15_000, maximumAge: 600_000 },
    );
  });
}

/** "Use my location" as an action with its own pending state: the browser's position, then the city there. */
export function useLocate() {
  return useMutation({ mutationFn: cityHere });
}
