/** Telegram deep-link payloads: up to 64 of A-Z, a-z, 0-9, _ and - (https://core.telegram.org/bots/features#deep-linking). */
const startPayload = /^[\w-]{1,64}$/;

/**
 * The Mini App address for a web_app button. A `/start <payload>` deep link is handed on as `startapp`,
 * the name Telegram uses for Mini App links, so the app reads one parameter however it was opened.
 * Anything that is not a valid payload is dropped rather than passed to the app.
 */
export function miniAppUrl(publicUrl: string, payload?: string): string {
  const url = new URL(publicUrl);
  if (payload && startPayload.test(payload)) url.searchParams.set('startapp', payload);
  return url.toString();
}
