/** Why the browser gave no position: no API, the person said no, or it failed (timeout, no fix). */
export type LocateFailure = 'unsupported' | 'denied' | 'failed';

export class LocateError extends Error {
  constructor(readonly reason: LocateFailure) {
    super(`geolocation ${reason}`);
  }
}

/** The i18n key of each failure (spec section 8's messages). */
export const locateFailureText: Record<LocateFailure, string> = {
  unsupported: 'app.errors.geolocationUnsupported',
  denied: 'app.errors.locationDenied',
  failed: 'app.errors.cityFailed',
};

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
