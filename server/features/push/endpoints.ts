/**
 * Which push services a browser's endpoint may be on. The server POSTs to the endpoint, so an endpoint the
 * client chose freely would make it call any address (an internal service, a victim's site): only the
 * browsers' own push services are accepted, as origins, `https://*.example` standing for any subdomain.
 */
export const defaultPushEndpointOrigins = [
  // Chrome, Edge on Chromium, Opera, Samsung Internet (Firebase Cloud Messaging)
  'https://fcm.googleapis.com',
  // Firefox
  'https://updates.push.services.mozilla.com',
  // Safari (macOS 13+, iOS 16.4+ home-screen web apps)
  'https://web.push.apple.com',
  // Legacy Edge and Windows (WNS)
  'https://*.notify.windows.com',
];

/** WEB_PUSH_ENDPOINT_ORIGINS (comma-separated), else the default list. */
export function pushEndpointOrigins(setting: string | undefined): string[] {
  const listed = setting
    ?.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return listed && listed.length > 0 ? listed : defaultPushEndpointOrigins;
}

/** Whether `endpoint` is an https URL on one of `origins`. */
export function isAllowedEndpoint(endpoint: string, origins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  return origins.some((allowed) => {
    const wildcard = allowed.match(/^https:\/\/\*\.(.+)$/);
    if (!wildcard) return url.origin === allowed;
    const suffix = `.${wildcard[1]}`;
    // The port must be the default one: `*.example` is `https://<sub>.example`, like the named origins.
    return url.port === '' && url.hostname.endsWith(suffix) && url.hostname.length > suffix.length;
  });
}
